#include "core/base/pool_growth.h"

#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

#include <atomic>

namespace toold::core {

struct PoolGrowth::Probe {
  std::atomic<bool> waiting{false};
  std::chrono::steady_clock::time_point postedAt; ///< the monitor's alone
};

PoolGrowth::PoolGrowth(boost::asio::thread_pool& pool, std::size_t initialThreads, PoolGrowthOptions options)
    : pool_(pool), initialThreads_(initialThreads), options_(options), probe_(std::make_shared<Probe>()) {
  monitor_ = std::thread([this] { monitor(); });
}

PoolGrowth::~PoolGrowth() { stop(); }

void PoolGrowth::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (monitor_.joinable()) monitor_.join();
  // The monitor has ended, so nothing adds to the list any more.
  for (auto& thread : added_)
    if (thread.joinable()) thread.join();
}

std::size_t PoolGrowth::threads() const {
  std::lock_guard lock(mutex_);
  return initialThreads_ + added_.size();
}

void PoolGrowth::monitor() {
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, options_.probeInterval, [this] { return stopping_; })) {
    const auto now = std::chrono::steady_clock::now();
    if (!probe_->waiting.load()) {
      probe_->waiting = true;
      probe_->postedAt = now;
      boost::asio::post(pool_, [probe = probe_] { probe->waiting = false; });
      continue;
    }
    const std::size_t threads = initialThreads_ + added_.size();
    if (now - probe_->postedAt < options_.startedWithin || threads >= options_.maxThreads) continue;
    added_.emplace_back([&pool = pool_] { pool.attach(); });
    // One thread per wait: the next is added only if the queue still does not move.
    probe_->postedAt = now;
    spdlog::warn("worker pool: work waited over {} ms with all {} threads busy; added one ({} of at most {})",
                 options_.startedWithin.count(), threads, threads + 1, options_.maxThreads);
  }
}

} // namespace toold::core
