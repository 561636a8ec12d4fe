// Keeping the newest of many results without keeping them all: glob and grep show the 100 most
// recently modified files (grep: their matching lines, up to 100 lines in all), but must consider
// every match to know which those are. Each offered entry carries its modification time and a
// weight (1 for a glob result, its kept lines for grep); entries are kept newest first, and once
// the entries newer than the oldest kept one already weigh the whole budget, the oldest goes.
// Memory stays at about the budget whatever the number of matches. Thread-safe.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

namespace toold::builtins {

template <typename Payload>
class NewestFirst {
public:
  explicit NewestFirst(std::size_t budget) : budget_(budget) {}

  /// How much weight an entry with `mtimeNs` could still get shown (0: it is too old already).
  std::size_t room(std::int64_t mtimeNs, const std::string& path) const {
    std::lock_guard lock(mutex_);
    std::size_t newer = 0;
    const Key mine{-mtimeNs, path};
    for (const auto& [key, entry] : entries_) {
      if (!(key < mine) || newer >= budget_) break;
      newer += entry.weight;
    }
    return newer >= budget_ ? 0 : budget_ - newer;
  }

  void offer(std::int64_t mtimeNs, std::string path, std::size_t weight, Payload payload) {
    std::lock_guard lock(mutex_);
    entries_.emplace(Key{-mtimeNs, path}, Entry{weight, std::move(payload)});
    total_ += weight;
    // Drop the oldest while the entries before it already fill the budget.
    while (!entries_.empty()) {
      auto last = std::prev(entries_.end());
      if (total_ - last->second.weight < budget_) break;
      total_ -= last->second.weight;
      entries_.erase(last);
    }
  }

  /// The kept entries, newest first (ties by path), as (mtime, path, payload).
  std::vector<std::tuple<std::int64_t, std::string, Payload>> take() {
    std::lock_guard lock(mutex_);
    std::vector<std::tuple<std::int64_t, std::string, Payload>> out;
    for (auto& [key, entry] : entries_) out.emplace_back(-key.first, key.second, std::move(entry.payload));
    entries_.clear();
    total_ = 0;
    return out;
  }

private:
  using Key = std::pair<std::int64_t, std::string>; ///< (-mtime, path): newest first, then by path
  struct Entry {
    std::size_t weight;
    Payload payload;
  };
  std::size_t budget_;
  mutable std::mutex mutex_;
  std::map<Key, Entry> entries_;
  std::size_t total_ = 0;
};

} // namespace toold::builtins
