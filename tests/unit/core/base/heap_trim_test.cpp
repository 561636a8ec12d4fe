#include "core/base/heap_trim.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <thread>

using toold::core::DeferredHeapTrim;
using namespace std::chrono_literals;

namespace {

// Waits up to `limit` for `count` to reach `want` (a loaded machine may run the trim late).
bool reaches(const std::atomic<int>& count, int want, std::chrono::milliseconds limit = 5s) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (count.load() < want && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(5ms);
  return count.load() >= want;
}

} // namespace

TEST_CASE("heap trim: once after a large change, when the changes have paused", "[heap_trim]") {
  std::atomic<int> trims{0};
  DeferredHeapTrim trim(20ms, [&] { ++trims; });
  {
    auto hold = trim.hold();
    hold.markLarge();
  }
  CHECK(reaches(trims, 1));
  std::this_thread::sleep_for(100ms);
  CHECK(trims.load() == 1); // once, not again and again
}

TEST_CASE("heap trim: none after small changes", "[heap_trim]") {
  std::atomic<int> trims{0};
  DeferredHeapTrim trim(10ms, [&] { ++trims; });
  for (int i = 0; i < 3; ++i) trim.hold();
  std::this_thread::sleep_for(100ms);
  CHECK(trims.load() == 0);
}

TEST_CASE("heap trim: a run of changes trims once, after the last", "[heap_trim]") {
  std::atomic<int> trims{0};
  // Long enough that the changes below (microseconds apart) always fall inside it.
  DeferredHeapTrim trim(300ms, [&] { ++trims; });
  for (int i = 0; i < 5; ++i) {
    auto hold = trim.hold();
    hold.markLarge();
  }
  CHECK(reaches(trims, 1));
  std::this_thread::sleep_for(400ms);
  CHECK(trims.load() == 1);
}

TEST_CASE("heap trim: never while a change is in progress", "[heap_trim]") {
  std::atomic<int> trims{0};
  DeferredHeapTrim trim(10ms, [&] { ++trims; });
  auto running = trim.hold();
  {
    auto done = trim.hold();
    done.markLarge();
  }
  std::this_thread::sleep_for(100ms);
  CHECK(trims.load() == 0);
  running.release();
  CHECK(reaches(trims, 1));
}

TEST_CASE("heap trim: a hold moved keeps one release", "[heap_trim]") {
  std::atomic<int> trims{0};
  DeferredHeapTrim trim(10ms, [&] { ++trims; });
  DeferredHeapTrim::Hold kept;
  {
    auto hold = trim.hold();
    hold.markLarge();
    kept = std::move(hold);
  }
  std::this_thread::sleep_for(60ms);
  CHECK(trims.load() == 0); // still held by `kept`
  kept.release();
  CHECK(reaches(trims, 1));
}
