#include "core/base/rate_limit.h"

#include <catch2/catch.hpp>

using toold::core::RateLimit;
using namespace std::chrono_literals;

TEST_CASE("rate limit: a burst passes, then the average rate, and the rest is counted", "[rate_limit]") {
  RateLimit limit(20, 100);
  const auto start = RateLimit::Clock::time_point{} + 1h;
  int passed = 0;
  for (int i = 0; i < 1000; ++i) passed += limit.allow(start) ? 1 : 0;
  CHECK(passed == 100);
  CHECK(limit.takeDropped() == 900);
  CHECK(limit.takeDropped() == 0);
  // A second later, 20 more; never more than the burst however long it waited.
  passed = 0;
  for (int i = 0; i < 100; ++i) passed += limit.allow(start + 1s) ? 1 : 0;
  CHECK(passed == 20);
  passed = 0;
  for (int i = 0; i < 1000; ++i) passed += limit.allow(start + 1h) ? 1 : 0;
  CHECK(passed == 100);
  CHECK(limit.takeDropped() == 80 + 900);
}
