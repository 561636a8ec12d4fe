// The serial queue: inline when idle, never overlapping, submission order kept across threads.
#include "core/base/serial_queue.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <thread>
#include <vector>

using toold::core::SerialQueue;

TEST_CASE("an idle queue runs the task inline", "[serial_queue]") {
  SerialQueue queue;
  std::thread::id ranOn;
  queue.run([&] { ranOn = std::this_thread::get_id(); });
  CHECK(ranOn == std::this_thread::get_id());
}

TEST_CASE("a task submitted from inside a task runs after it, not nested", "[serial_queue]") {
  SerialQueue queue;
  std::vector<int> order;
  queue.run([&] {
    order.push_back(1);
    queue.run([&] { order.push_back(3); });
    order.push_back(2);
  });
  CHECK(order == std::vector<int>{1, 2, 3});
}

TEST_CASE("tasks from many threads never overlap and each thread's order is kept", "[serial_queue]") {
  SerialQueue queue;
  std::atomic<int> inside{0};
  bool overlapped = false;
  std::vector<std::vector<int>> seen(4);
  std::vector<int> log; // touched only inside tasks
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 2000; ++i) {
        queue.run([&, t, i] {
          if (inside.fetch_add(1) != 0) overlapped = true;
          log.push_back(t * 100000 + i);
          inside.fetch_sub(1);
        });
      }
    });
  }
  for (auto& thread : threads) thread.join();
  CHECK_FALSE(overlapped);
  REQUIRE(log.size() == 8000);
  for (int entry : log) seen[static_cast<std::size_t>(entry / 100000)].push_back(entry % 100000);
  for (const auto& perThread : seen) {
    REQUIRE(perThread.size() == 2000);
    for (std::size_t i = 0; i < perThread.size(); ++i) CHECK(perThread[i] == static_cast<int>(i));
  }
}
