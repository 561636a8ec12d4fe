#include "core/path_locks.h"

namespace toold::core {

void PathLocks::acquire(const std::string& path, std::function<void(Lease)> start) {
  {
    std::lock_guard lock(mutex_);
    auto [it, inserted] = held_.try_emplace(path);
    if (!inserted) {
      it->second.queue.push_back(std::move(start));
      return;
    }
  }
  std::weak_ptr<int> alive = alive_;
  Lease lease(static_cast<void*>(nullptr), [this, alive, path](void*) {
    if (alive.lock()) release(path);
  });
  start(std::move(lease));
}

void PathLocks::release(const std::string& path) {
  std::function<void(Lease)> next;
  {
    std::lock_guard lock(mutex_);
    auto it = held_.find(path);
    if (it == held_.end()) return;
    if (it->second.queue.empty()) {
      held_.erase(it);
      return;
    }
    next = std::move(it->second.queue.front());
    it->second.queue.pop_front();
  }
  std::weak_ptr<int> alive = alive_;
  Lease lease(static_cast<void*>(nullptr), [this, alive, path](void*) {
    if (alive.lock()) release(path);
  });
  next(std::move(lease));
}

std::size_t PathLocks::heldCount() const {
  std::lock_guard lock(mutex_);
  return held_.size();
}

} // namespace toold::core
