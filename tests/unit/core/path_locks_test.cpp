#include "core/path_locks.h"

#include <catch2/catch.hpp>

#include <vector>

using namespace toold::core;

TEST_CASE("path locks: one holder per path, waiters in request order, other paths free", "[path_locks]") {
  PathLocks locks;
  std::vector<std::string> order;
  PathLocks::Lease first, second, other;
  locks.acquire("/w/a.txt", [&](PathLocks::Lease lease) {
    order.push_back("first");
    first = std::move(lease);
  });
  locks.acquire("/w/a.txt", [&](PathLocks::Lease lease) {
    order.push_back("second");
    second = std::move(lease);
  });
  locks.acquire("/w/a.txt", [&](PathLocks::Lease) { order.push_back("third"); }); // releases at once
  locks.acquire("/w/b.txt", [&](PathLocks::Lease lease) {
    order.push_back("other");
    other = std::move(lease);
  });
  CHECK(order == std::vector<std::string>{"first", "other"});
  first.reset();
  CHECK(order == std::vector<std::string>{"first", "other", "second"});
  second.reset();
  CHECK(order == std::vector<std::string>{"first", "other", "second", "third"});
  CHECK(locks.heldCount() == 1); // b.txt only
  other.reset();
  CHECK(locks.heldCount() == 0);
}
