#include "core/base/worker_threads.h"

namespace toold::core {

WorkerThreads::WorkerThreads(std::size_t threads, PoolGrowthOptions growth) : threads_(threads), growthOptions_(growth) {}

WorkerThreads::~WorkerThreads() {
  stop();
  join();
}

boost::asio::thread_pool& WorkerThreads::pool() {
  // Every post comes here: once started, no lock.
  if (auto* ready = ready_.load(std::memory_order_acquire)) return *ready;
  std::lock_guard lock(mutex_);
  if (!pool_) {
    pool_.emplace(threads_);
    growth_.emplace(*pool_, threads_, growthOptions_);
    // Work posted after stop() must not run, as it would not on a stopped pool.
    if (stopped_) pool_->stop();
    ready_.store(&*pool_, std::memory_order_release);
  }
  return *pool_;
}

bool WorkerThreads::started() const {
  std::lock_guard lock(mutex_);
  return pool_.has_value();
}

void WorkerThreads::stop() {
  std::lock_guard lock(mutex_);
  stopped_ = true;
  if (pool_) pool_->stop();
}

void WorkerThreads::join() {
  // Not under the lock: a body still running may post more work (which then never runs).
  boost::asio::thread_pool* pool = nullptr;
  PoolGrowth* growth = nullptr;
  {
    std::lock_guard lock(mutex_);
    if (!pool_) return;
    pool = &*pool_;
    growth = &*growth_;
  }
  growth->stop();
  pool->join();
}

} // namespace toold::core
