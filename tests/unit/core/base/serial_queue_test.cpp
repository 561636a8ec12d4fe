// The serial queue: inline when idle, never overlapping, submission order kept across threads.
#include "core/base/serial_queue.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <future>
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

TEST_CASE("an idle queue hands runElsewhere's task to its poster, and tasks submitted meanwhile follow it there",
          "[serial_queue]") {
  SerialQueue queue;
  std::vector<SerialQueue::Task> handed; // the "elsewhere": run below, on another thread
  std::vector<int> order;                // touched only inside tasks
  std::vector<std::thread::id> ranOn;
  auto record = [&](int n) {
    return [&, n] {
      order.push_back(n);
      ranOn.push_back(std::this_thread::get_id());
    };
  };
  CHECK(queue.runElsewhere(record(1), [&](SerialQueue::Task task) { handed.push_back(std::move(task)); }));
  CHECK(queue.busy()); // handed over, not yet run: the queue counts as running
  queue.run(record(2)); // waits behind the handed-over task instead of running here
  CHECK_FALSE(queue.runElsewhere(record(3), [&](SerialQueue::Task task) { handed.push_back(std::move(task)); }));
  CHECK(order.empty());
  REQUIRE(handed.size() == 1); // the busy queue took task 3 itself: posted once only
  std::thread elsewhere([&] { handed.front()(); });
  const auto elsewhereId = elsewhere.get_id();
  elsewhere.join();
  CHECK(order == std::vector<int>{1, 2, 3});
  CHECK(ranOn == std::vector<std::thread::id>(3, elsewhereId));
  CHECK_FALSE(queue.busy());
  queue.run(record(4)); // idle again: inline
  CHECK(ranOn.back() == std::this_thread::get_id());
}

TEST_CASE("runHere waits for a queue running on another thread, then runs the task on its own", "[serial_queue]") {
  SerialQueue queue;
  std::promise<void> entered;
  std::promise<void> release;
  std::vector<int> order; // touched only inside tasks
  std::thread elsewhere([&] {
    queue.run([&] {
      entered.set_value();
      release.get_future().wait();
      order.push_back(1);
    });
  });
  entered.get_future().wait(); // the queue now runs on `elsewhere`
  std::atomic<bool> ran{false};
  std::thread::id ranOn;
  std::thread here([&] {
    queue.runHere([&] {
      order.push_back(2);
      ranOn = std::this_thread::get_id();
      ran = true;
    });
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK_FALSE(ran.load()); // still waiting: the queue is busy elsewhere
  const auto hereId = here.get_id();
  release.set_value();
  here.join();
  elsewhere.join();
  CHECK(order == std::vector<int>{1, 2});
  CHECK(ranOn == hereId); // run by the waiter, not queued for the other thread
}
