#include "core/base/pool_growth.h"

#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>

#include <catch2/catch.hpp>

#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>
#include <thread>

using toold::core::PoolGrowth;
using toold::core::PoolGrowthOptions;
using namespace std::chrono_literals;

namespace {

/// Work that holds its thread until released, as a read of a file that never answers would.
struct Gate {
  std::mutex mutex;
  std::condition_variable opened;
  bool open = false;
  void block() {
    std::unique_lock lock(mutex);
    opened.wait(lock, [this] { return open; });
  }
  void release() {
    {
      std::lock_guard lock(mutex);
      open = true;
    }
    opened.notify_all();
  }
};

PoolGrowthOptions fast(std::size_t maxThreads = 64) {
  return PoolGrowthOptions{std::chrono::milliseconds(20), std::chrono::milliseconds(20), maxThreads};
}

} // namespace

TEST_CASE("pool growth: work queued behind blocked threads starts on a thread added for it", "[pool]") {
  boost::asio::thread_pool pool(2);
  PoolGrowth growth(pool, 2, fast());
  Gate gate;
  boost::asio::post(pool, [&] { gate.block(); });
  boost::asio::post(pool, [&] { gate.block(); });
  std::promise<void> ran;
  const auto posted = std::chrono::steady_clock::now();
  boost::asio::post(pool, [&] { ran.set_value(); });
  CHECK(ran.get_future().wait_for(2s) == std::future_status::ready);
  CHECK(std::chrono::steady_clock::now() - posted < 1s);
  CHECK(growth.threads() == 3);
  gate.release();
  pool.stop();
  growth.stop();
  pool.join();
}

TEST_CASE("pool growth: an idle or moving pool does not grow", "[pool]") {
  boost::asio::thread_pool pool(2);
  PoolGrowth growth(pool, 2, fast());
  // Short work keeps coming, but never waits long behind a busy pool.
  for (int i = 0; i < 20; ++i) {
    std::promise<void> done;
    boost::asio::post(pool, [&] { done.set_value(); });
    done.get_future().wait();
    std::this_thread::sleep_for(10ms);
  }
  std::this_thread::sleep_for(100ms);
  CHECK(growth.threads() == 2);
  pool.stop();
  growth.stop();
  pool.join();
}

TEST_CASE("pool growth: the pool grows no further than its cap", "[pool]") {
  boost::asio::thread_pool pool(2);
  PoolGrowth growth(pool, 2, fast(4));
  Gate gate;
  for (int i = 0; i < 6; ++i) boost::asio::post(pool, [&] { gate.block(); });
  std::promise<void> ran;
  boost::asio::post(pool, [&] { ran.set_value(); });
  // Four threads, all blocked: the last work waits however long.
  CHECK(ran.get_future().wait_for(400ms) == std::future_status::timeout);
  CHECK(growth.threads() == 4);
  gate.release();
  pool.stop();
  growth.stop();
  pool.join();
}
