// The snapshots a client holds, by id. Bounded: past the capacity the least recently used one is
// evicted, so a client that never releases cannot grow toold without limit. A call through an
// evicted snapshot is answered -32602 and the client takes a new one.
#pragma once

#include "core/tools/snapshot.h"

#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace toold::core {

inline constexpr std::size_t kDefaultSnapshotCapacity = 1024;

class SnapshotStore {
public:
  explicit SnapshotStore(std::size_t capacity = kDefaultSnapshotCapacity);

  /// A fresh id: "snapshot-<n>", never reused within the process.
  std::string newId();
  void put(std::shared_ptr<const Snapshot> snapshot);
  /// The snapshot, marked as recently used; null when unknown, released or evicted.
  std::shared_ptr<const Snapshot> find(const std::string& id);
  bool release(const std::string& id);
  std::size_t size() const;

private:
  using Entry = std::shared_ptr<const Snapshot>;
  std::size_t capacity_;
  mutable std::mutex mutex_;
  std::list<Entry> order_; ///< most recently used first
  std::unordered_map<std::string, std::list<Entry>::iterator> byId_;
  std::uint64_t nextId_ = 1;
};

} // namespace toold::core
