// Keeps the worker pool from being starved by tool bodies that block.
//
// Tool bodies run on a small pool (two threads). A body that blocks — a read of a file that never
// answers, a client's tool that waits on something slow — holds its thread, and two of them would
// hold every file tool of every session. Rather than trusting every body to be bounded, the pool
// grows: a monitor posts a probe to the pool every `probeInterval`; a probe not started within
// `startedWithin` means work is queued while every thread is busy, and the monitor attaches one more
// thread to the pool (asio::thread_pool::attach), up to `maxThreads` in all. Threads added stay
// until the pool stops: a blocked thread cannot be taken back anyway, and a pool that was once
// that busy may well be again.
//
// The probe is the one measure that needs nothing from those who post work (they post to the
// asio::thread_pool as before): it waits in the same queue as their work. Its cost when idle is
// one wake-up of the monitor and one of a worker per interval.
#pragma once

#include <boost/asio/thread_pool.hpp>

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace toold::core {

struct PoolGrowthOptions {
  std::chrono::milliseconds probeInterval{100};
  std::chrono::milliseconds startedWithin{100};
  std::size_t maxThreads = 64; ///< the pool's threads in all, its own included
};

class PoolGrowth {
public:
  /// Watches `pool`, which was made with `initialThreads` threads; starts the monitor thread.
  PoolGrowth(boost::asio::thread_pool& pool, std::size_t initialThreads, PoolGrowthOptions options = {});
  /// Calls stop().
  ~PoolGrowth();
  PoolGrowth(const PoolGrowth&) = delete;
  PoolGrowth& operator=(const PoolGrowth&) = delete;

  /// Ends the monitor, and joins the threads it added once the pool is stopped (call after
  /// `pool.stop()`; a thread still inside a blocked body is waited for, as the pool's own are).
  /// Idempotent.
  void stop();

  /// The pool's threads now: its own and those added.
  std::size_t threads() const;

private:
  void monitor();

  boost::asio::thread_pool& pool_;
  const std::size_t initialThreads_;
  const PoolGrowthOptions options_;

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  /// Shared with the probes, which may outlive this object in the pool's queue (never run then).
  struct Probe;
  std::shared_ptr<Probe> probe_;
  std::vector<std::thread> added_;
  std::thread monitor_;
};

} // namespace toold::core
