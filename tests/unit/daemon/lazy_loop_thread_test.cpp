// The MCP servers' loop thread: started by the first server, and never before main allows it.
#include "daemon/lazy_loop_thread.h"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/post.hpp>

#include <catch2/catch.hpp>

#include <future>

using toold::daemon::LazyLoopThread;

TEST_CASE("lazy loop thread: nothing starts until it is both wanted and allowed", "[daemon]") {
  boost::asio::io_context io;
  auto work = boost::asio::make_work_guard(io);
  LazyLoopThread loop(io);
  loop.allow();
  CHECK_FALSE(loop.started());
  loop.want();
  REQUIRE(loop.started());
  std::promise<void> ran;
  boost::asio::post(io, [&ran] { ran.set_value(); });
  CHECK(ran.get_future().wait_for(std::chrono::seconds(5)) == std::future_status::ready);
  work.reset();
  io.stop();
  loop.join();
  CHECK_FALSE(loop.started());
}

TEST_CASE("lazy loop thread: wanted before main allows it, it waits for allow()", "[daemon]") {
  boost::asio::io_context io;
  auto work = boost::asio::make_work_guard(io);
  LazyLoopThread loop(io);
  loop.want();
  CHECK_FALSE(loop.started());
  loop.allow();
  CHECK(loop.started());
  work.reset();
  io.stop();
}
