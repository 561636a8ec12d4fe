// The tool workers start with their first work, not with toold.
#include "core/base/worker_threads.h"

#include <boost/asio/post.hpp>

#include <catch2/catch.hpp>

#include <filesystem>
#include <future>

using toold::core::WorkerThreads;

namespace {

std::size_t threadCount() {
  std::size_t count = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/task")) ++count;
  return count;
}

} // namespace

TEST_CASE("worker threads: none run until the first work is posted", "[base]") {
  const std::size_t before = threadCount();
  WorkerThreads workers(2);
  CHECK_FALSE(workers.started());
  CHECK(threadCount() == before);
  std::promise<void> ran;
  boost::asio::post(workers.pool(), [&ran] { ran.set_value(); });
  CHECK(ran.get_future().wait_for(std::chrono::seconds(5)) == std::future_status::ready);
  CHECK(workers.started());
  CHECK(threadCount() >= before + 2);
  workers.stop();
  workers.join();
}

TEST_CASE("worker threads: stopped before they started, later work never runs", "[base]") {
  WorkerThreads workers(2);
  workers.stop();
  bool ran = false;
  boost::asio::post(workers.pool(), [&ran] { ran = true; });
  workers.join();
  CHECK_FALSE(ran);
}
