// The pool that runs tool bodies (two threads, grown by PoolGrowth while blocked bodies hold them
// all), started by the first work posted to it rather than with toold: a session that only says
// initialize, or lists tools, never needs it, and threads started before the first answer are
// start-up time every client waits for.
#pragma once

#include "core/base/pool_growth.h"

#include <boost/asio/thread_pool.hpp>

#include <atomic>
#include <cstddef>
#include <mutex>
#include <optional>

namespace toold::core {

class WorkerThreads {
public:
  explicit WorkerThreads(std::size_t threads, PoolGrowthOptions growth = {});
  /// Stops and joins, as stop() then join().
  ~WorkerThreads();
  WorkerThreads(const WorkerThreads&) = delete;
  WorkerThreads& operator=(const WorkerThreads&) = delete;

  /// The pool, its threads and their growth monitor started on the first call. Post work to it.
  boost::asio::thread_pool& pool();
  /// Whether pool() was ever called.
  bool started() const;
  /// Ends the pool's threads once their current work is done (nothing if never started); later
  /// work posted is never run.
  void stop();
  /// Waits for the threads, the added ones included.
  void join();

private:
  const std::size_t threads_;
  const PoolGrowthOptions growthOptions_;
  mutable std::mutex mutex_;
  bool stopped_ = false; // under mutex_
  std::optional<boost::asio::thread_pool> pool_;
  std::optional<PoolGrowth> growth_;
  std::atomic<boost::asio::thread_pool*> ready_{nullptr}; // &*pool_ once made
};

} // namespace toold::core
