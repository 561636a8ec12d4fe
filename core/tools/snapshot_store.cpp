#include "core/tools/snapshot_store.h"

namespace toold::core {

SnapshotStore::SnapshotStore(std::size_t capacity) : capacity_(capacity == 0 ? 1 : capacity) {}

std::string SnapshotStore::newId() {
  std::lock_guard lock(mutex_);
  return "snapshot-" + std::to_string(nextId_++);
}

void SnapshotStore::put(std::shared_ptr<const Snapshot> snapshot) {
  std::lock_guard lock(mutex_);
  if (auto it = byId_.find(snapshot->id); it != byId_.end()) {
    order_.erase(it->second);
    byId_.erase(it);
  }
  order_.push_front(std::move(snapshot));
  byId_[order_.front()->id] = order_.begin();
  while (order_.size() > capacity_) {
    byId_.erase(order_.back()->id);
    order_.pop_back();
  }
}

std::shared_ptr<const Snapshot> SnapshotStore::find(const std::string& id) {
  std::lock_guard lock(mutex_);
  auto it = byId_.find(id);
  if (it == byId_.end()) return nullptr;
  order_.splice(order_.begin(), order_, it->second);
  return order_.front();
}

bool SnapshotStore::release(const std::string& id) {
  std::lock_guard lock(mutex_);
  auto it = byId_.find(id);
  if (it == byId_.end()) return false;
  order_.erase(it->second);
  byId_.erase(it);
  return true;
}

std::size_t SnapshotStore::size() const {
  std::lock_guard lock(mutex_);
  return order_.size();
}

} // namespace toold::core
