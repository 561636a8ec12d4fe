// The handover: a bound on calls waiting to start, kept whether callers try or wait.
#include "core/tools/call_handover.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <future>
#include <stdexcept>
#include <thread>

using toold::core::CallHandover;
using namespace std::chrono_literals;

TEST_CASE("tryAdmit counts calls up to the bound and refuses past it until one starts", "[call_handover]") {
  CallHandover handover(1, 2);
  CHECK(handover.tryAdmit());
  CHECK(handover.tryAdmit());
  CHECK_FALSE(handover.tryAdmit());
  handover.started();
  CHECK(handover.tryAdmit());
  CHECK_FALSE(handover.tryAdmit());
}

TEST_CASE("admit waits while the bound is reached and goes on once a call starts", "[call_handover]") {
  CallHandover handover(1, 1);
  REQUIRE(handover.tryAdmit());
  std::atomic<bool> admitted{false};
  std::thread waiter([&] {
    handover.admit();
    admitted = true;
  });
  std::this_thread::sleep_for(50ms);
  CHECK_FALSE(admitted.load()); // still waiting: the one admitted call has not started
  handover.started();
  waiter.join();
  CHECK(admitted.load());
  CHECK_FALSE(handover.tryAdmit()); // the waiter's call now holds the only place
}

TEST_CASE("a caller that had to wait goes on only once half of the waiting calls have started", "[call_handover]") {
  CallHandover handover(1, 4);
  for (int i = 0; i < 4; ++i) REQUIRE(handover.tryAdmit());
  std::atomic<bool> admitted{false};
  std::thread waiter([&] {
    handover.admit();
    admitted = true;
  });
  std::this_thread::sleep_for(50ms);
  CHECK_FALSE(admitted.load()); // four wait: the bound
  handover.started();           // three wait: more than half
  std::this_thread::sleep_for(50ms);
  CHECK_FALSE(admitted.load());
  handover.started(); // two wait: half
  waiter.join();
  CHECK(admitted.load());
}

TEST_CASE("posted tasks run on the handover's own threads", "[call_handover]") {
  CallHandover handover(1, 4);
  std::promise<std::thread::id> ranOn;
  handover.post([&] { ranOn.set_value(std::this_thread::get_id()); });
  auto future = ranOn.get_future();
  REQUIRE(future.wait_for(5s) == std::future_status::ready);
  CHECK(future.get() != std::this_thread::get_id());
}

TEST_CASE("a task that throws is logged and the handover's thread goes on", "[call_handover]") {
  CallHandover handover(1, 4);
  handover.post([] { throw std::runtime_error("a step failed"); });
  std::promise<void> next;
  handover.post([&] { next.set_value(); });
  CHECK(next.get_future().wait_for(5s) == std::future_status::ready);
}
