// A thread that runs an io_context, started only once something needs it and toold is ready for
// it to run. The MCP servers' loop is one: most sessions configure no MCP server, and a thread
// started before the first answer is start-up time (and a stack of idle memory).
#pragma once

#include <boost/asio/io_context.hpp>

#include <mutex>
#include <thread>

namespace toold::daemon {

class LazyLoopThread {
public:
  explicit LazyLoopThread(boost::asio::io_context& io) : io_(io) {}
  ~LazyLoopThread() { join(); }
  LazyLoopThread(const LazyLoopThread&) = delete;
  LazyLoopThread& operator=(const LazyLoopThread&) = delete;

  /// Something will run on the loop: the thread starts now, or when allow() is called.
  void want();
  /// From now on the loop may run (what runs on it may use everything main set up before).
  void allow();
  /// Whether the thread was started.
  bool started() const;
  /// Waits for the thread, once the loop has been stopped.
  void join();

private:
  void startLocked();

  boost::asio::io_context& io_;
  mutable std::mutex mutex_;
  bool wanted_ = false;
  bool allowed_ = false;
  std::thread thread_;
};

} // namespace toold::daemon
