#include "core/files/path_locks.h"

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

TEST_CASE("path locks: a set of paths is taken in one step, after every earlier holder of any of them",
          "[path_locks]") {
  PathLocks locks;
  std::vector<std::string> order;
  PathLocks::Lease a, patch, later;
  locks.acquire("/w/a", [&](PathLocks::Lease lease) { a = std::move(lease); });
  locks.acquireAll({"/w/c", "/w/a", "/w/b", "/w/a"}, [&](PathLocks::Lease lease) {
    order.push_back("patch");
    patch = std::move(lease);
  });
  // Queued behind the patch on b, though b is free of holders: requests keep their order.
  locks.acquire("/w/b", [&](PathLocks::Lease lease) {
    order.push_back("b");
    later = std::move(lease);
  });
  CHECK(order.empty());
  CHECK(locks.heldCount() == 3);
  a.reset();
  CHECK(order == std::vector<std::string>{"patch"});
  patch.reset();
  CHECK(order == std::vector<std::string>{"patch", "b"});
  later.reset();
  CHECK(locks.heldCount() == 0);
}

TEST_CASE("path locks: two overlapping sets requested in opposite orders never deadlock", "[path_locks]") {
  PathLocks locks;
  int started = 0;
  PathLocks::Lease first;
  locks.acquireAll({"/w/x", "/w/y"}, [&](PathLocks::Lease lease) {
    ++started;
    first = std::move(lease);
  });
  locks.acquireAll({"/w/y", "/w/x"}, [&](PathLocks::Lease) { ++started; });
  CHECK(started == 1);
  first.reset();
  CHECK(started == 2);
  CHECK(locks.heldCount() == 0);
}

TEST_CASE("path locks: 100,000 paths in one set, and a chain of 100,000 waiters, need no deep stack",
          "[path_locks]") {
  // Both used to recurse once per path or waiter and overflowed the stack past a few thousand.
  PathLocks locks;
  std::vector<std::string> paths;
  for (int i = 0; i < 100'000; ++i) paths.push_back("/w/f" + std::to_string(i));
  PathLocks::Lease all;
  bool started = false;
  locks.acquireAll(paths, [&](PathLocks::Lease lease) {
    started = true;
    all = std::move(lease);
  });
  REQUIRE(started);
  CHECK(locks.heldCount() == 100'000);
  int ran = 0;
  for (int i = 0; i < 100'000; ++i) locks.acquire("/w/f0", [&](PathLocks::Lease) { ++ran; }); // each drops at once
  CHECK(ran == 0);
  all.reset(); // starts every waiter in turn, each releasing to the next
  CHECK(ran == 100'000);
  CHECK(locks.heldCount() == 0);
}
