#include "core/files/path_locks.h"

#include <algorithm>
#include <exception>

namespace toold::core {

struct PathLocks::Request {
  std::vector<std::string> paths;
  std::function<void(Lease)> start;
  std::size_t waitingFor = 0; ///< paths whose queue it is not yet first in
};

namespace {

// The requests a thread has made ready while it is already starting others: a start that drops its
// lease at once (or a chain of them) would otherwise recurse once per waiter.
thread_local std::vector<std::function<void()>>* pendingStarts = nullptr;

} // namespace

void PathLocks::acquire(const std::string& path, std::function<void(Lease)> start) {
  acquireAll({path}, std::move(start));
}

void PathLocks::acquireAll(std::vector<std::string> paths, std::function<void(Lease)> start) {
  std::sort(paths.begin(), paths.end());
  paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
  auto request = std::make_shared<Request>();
  request->paths = std::move(paths);
  request->start = std::move(start);
  {
    std::lock_guard lock(mutex_);
    for (const auto& path : request->paths) {
      auto& queue = queues_[path];
      queue.push_back(request);
      if (queue.size() > 1) ++request->waitingFor;
    }
    if (request->waitingFor > 0) return;
  }
  startAll({request});
}

PathLocks::Lease PathLocks::leaseFor(const std::shared_ptr<Request>& request) {
  std::weak_ptr<int> alive = alive_;
  return Lease(static_cast<void*>(nullptr), [this, alive, request](void*) {
    if (alive.lock()) release(request);
  });
}

void PathLocks::release(const std::shared_ptr<Request>& request) {
  Ready ready;
  {
    std::lock_guard lock(mutex_);
    for (const auto& path : request->paths) {
      auto it = queues_.find(path);
      if (it == queues_.end() || it->second.empty() || it->second.front() != request) continue;
      it->second.pop_front();
      if (it->second.empty()) {
        queues_.erase(it);
        continue;
      }
      auto& next = it->second.front();
      if (--next->waitingFor == 0) ready.push_back(next);
    }
  }
  if (!ready.empty()) startAll(std::move(ready));
}

void PathLocks::startAll(Ready ready) {
  std::vector<std::function<void()>> starts;
  for (auto& request : ready)
    starts.emplace_back([this, request] {
      auto start = std::move(request->start);
      start(leaseFor(request));
    });
  if (pendingStarts) {
    // An outer startAll on this thread runs them once the current start has returned.
    for (auto& start : starts) pendingStarts->push_back(std::move(start));
    return;
  }
  pendingStarts = &starts;
  std::exception_ptr failure;
  // Indexed, and each start moved out first: a start may append to `starts`.
  for (std::size_t i = 0; i < starts.size(); ++i) {
    auto start = std::move(starts[i]);
    try {
      start();
    } catch (...) {
      // The remaining starts must still run, or their requests would hold their paths forever.
      if (!failure) failure = std::current_exception();
    }
  }
  pendingStarts = nullptr;
  if (failure) std::rethrow_exception(failure);
}

std::size_t PathLocks::heldCount() const {
  std::lock_guard lock(mutex_);
  return queues_.size();
}

} // namespace toold::core
