// Cancellation tokens: callbacks fire once, before and after registration, and across threads.
#include "core/base/cancellation.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <thread>
#include <vector>

using toold::core::CancellationSource;
using toold::core::CancellationToken;

TEST_CASE("a default token never cancels", "[cancellation]") {
  CancellationToken token;
  CHECK_FALSE(token.isCancelled());
  bool called = false;
  auto registration = token.onCancel([&] { called = true; });
  CHECK_FALSE(called);
}

TEST_CASE("callbacks run once on cancel, with the reason", "[cancellation]") {
  CancellationSource source;
  auto token = source.token();
  int calls = 0;
  auto registration = token.onCancel([&] { ++calls; });
  source.cancel("cancelled by the client");
  source.cancel("again");
  CHECK(calls == 1);
  CHECK(token.isCancelled());
  CHECK(token.reason() == "cancelled by the client");
}

TEST_CASE("registering after cancellation runs the callback at once", "[cancellation]") {
  CancellationSource source;
  source.cancel();
  bool called = false;
  auto registration = source.token().onCancel([&] { called = true; });
  CHECK(called);
}

TEST_CASE("a dropped registration is not called back", "[cancellation]") {
  CancellationSource source;
  bool called = false;
  { auto registration = source.token().onCancel([&] { called = true; }); }
  source.cancel();
  CHECK_FALSE(called);
}

TEST_CASE("concurrent registration and cancellation call every callback exactly once", "[cancellation]") {
  for (int round = 0; round < 50; ++round) {
    CancellationSource source;
    std::atomic<int> calls{0};
    std::vector<toold::core::CancellationRegistration> registrations(200);
    std::thread registrar([&] {
      for (auto& r : registrations) r = source.token().onCancel([&] { calls.fetch_add(1); });
    });
    std::thread canceller([&] { source.cancel(); });
    registrar.join();
    canceller.join();
    CHECK(calls.load() == 200);
  }
}
