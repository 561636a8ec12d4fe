// The program watchdog: one thread for the engine's life, armed per program.
#include "builtins/codemode/program_watchdog.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <thread>

using namespace toold::codemode;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

TEST_CASE("program watchdog: fires once at the deadline, and not after disarm", "[codemode]") {
  ProgramWatchdog watchdog;
  std::atomic<int> fired{0};
  std::atomic<bool> timeout{false};
  watchdog.arm(Clock::now() + 30ms, 0, [&](ProgramWatchdog::Reason reason) {
    timeout = reason == ProgramWatchdog::Reason::kTimeout;
    ++fired;
  });
  const auto start = Clock::now();
  while (fired == 0 && Clock::now() - start < 10s) std::this_thread::sleep_for(1ms);
  watchdog.disarm();
  CHECK(fired == 1);
  CHECK(timeout);

  // Disarmed before its deadline: never fires, and the next arm works again.
  watchdog.arm(Clock::now() + 50ms, 0, [&](ProgramWatchdog::Reason) { ++fired; });
  watchdog.disarm();
  std::this_thread::sleep_for(100ms);
  CHECK(fired == 1);
  watchdog.arm(Clock::now(), 0, [&](ProgramWatchdog::Reason) { ++fired; });
  while (fired == 1 && Clock::now() - start < 10s) std::this_thread::sleep_for(1ms);
  watchdog.disarm();
  CHECK(fired == 2);
}

TEST_CASE("program watchdog: fires for a resident size over the limit", "[codemode]") {
  REQUIRE(residentBytes() > 0);
  ProgramWatchdog watchdog;
  std::atomic<bool> resident{false};
  watchdog.arm(Clock::now() + 60s, 1, [&](ProgramWatchdog::Reason reason) {
    resident = reason == ProgramWatchdog::Reason::kResidentSize;
  });
  const auto start = Clock::now();
  while (!resident && Clock::now() - start < 10s) std::this_thread::sleep_for(1ms);
  watchdog.disarm();
  CHECK(resident);
}

TEST_CASE("program watchdog: disarm waits for a fire in progress", "[codemode]") {
  ProgramWatchdog watchdog;
  std::atomic<bool> inside{false}, done{false};
  watchdog.arm(Clock::now(), 0, [&](ProgramWatchdog::Reason) {
    inside = true;
    std::this_thread::sleep_for(50ms);
    done = true;
  });
  const auto start = Clock::now();
  while (!inside && Clock::now() - start < 10s) std::this_thread::sleep_for(1ms);
  REQUIRE(inside);
  watchdog.disarm();
  CHECK(done);
}

TEST_CASE("program watchdog: a program armed right after a long wait is watched from its start", "[codemode]") {
  // The previous program had no resident limit and two minutes: the watchdog sleeps until then.
  // A disarm() and the next arm() in quick succession must still start the new watch at once.
  ProgramWatchdog watchdog;
  for (int round = 0; round < 10; ++round) {
    watchdog.arm(Clock::now() + 120s, 0, [](ProgramWatchdog::Reason) {});
    std::this_thread::sleep_for(5ms);
    watchdog.disarm();
    std::atomic<bool> fired{false};
    watchdog.arm(Clock::now() + 120s, 1, [&](ProgramWatchdog::Reason) { fired = true; });
    const auto start = Clock::now();
    while (!fired && Clock::now() - start < 5s) std::this_thread::sleep_for(1ms);
    watchdog.disarm();
    REQUIRE(fired);
  }
}

TEST_CASE("program watchdog: a deadline sooner than the thread's wait is kept", "[codemode]") {
  // The previous program had two minutes and no resident limit, so the thread waits until then;
  // the next program, with 10 ms, must end at its own deadline.
  ProgramWatchdog watchdog;
  watchdog.arm(Clock::now() + 120s, 0, [](ProgramWatchdog::Reason) {});
  std::this_thread::sleep_for(5ms);
  watchdog.disarm();
  std::atomic<bool> timeout{false};
  watchdog.arm(Clock::now() + 10ms, 0, [&](ProgramWatchdog::Reason reason) {
    timeout = reason == ProgramWatchdog::Reason::kTimeout;
  });
  const auto start = Clock::now();
  while (!timeout && Clock::now() - start < 5s) std::this_thread::sleep_for(1ms);
  watchdog.disarm();
  CHECK(timeout);
}

TEST_CASE("program watchdog: programs in quick succession are each watched", "[codemode]") {
  // After a program the thread keeps polling for a while; a program armed then is not woken for
  // but found by the next poll.
  ProgramWatchdog watchdog;
  for (int round = 0; round < 5; ++round) {
    std::atomic<bool> resident{false};
    watchdog.arm(Clock::now() + 60s, 1, [&](ProgramWatchdog::Reason reason) {
      resident = reason == ProgramWatchdog::Reason::kResidentSize;
    });
    const auto start = Clock::now();
    while (!resident && Clock::now() - start < 5s) std::this_thread::sleep_for(1ms);
    watchdog.disarm();
    REQUIRE(resident);
  }
}
