#include "core/output/retention_ledger.h"

namespace toold::core {

void RetentionLedger::set(const std::string& name, std::uint64_t bytes, bool writing) {
  auto [it, inserted] = entries_.try_emplace(name);
  if (!inserted) total_ -= it->second.bytes;
  it->second = Entry{bytes, writing, false};
  total_ += bytes;
}

void RetentionLedger::record(const std::string& name, std::uint64_t bytes) {
  // A file still being written keeps its pin: a listing may see it before its writer finishes.
  auto it = entries_.find(name);
  set(name, bytes, it != entries_.end() && it->second.writing);
}

void RetentionLedger::writing(const std::string& name, std::uint64_t bytes) { set(name, bytes, true); }

void RetentionLedger::finished(const std::string& name, std::uint64_t bytes) { set(name, bytes, false); }

void RetentionLedger::forget(const std::string& name) {
  auto it = entries_.find(name);
  if (it == entries_.end()) return;
  total_ -= it->second.bytes;
  entries_.erase(it);
}

void RetentionLedger::resync(const std::map<std::string, std::uint64_t>& found) {
  std::map<std::string, Entry, std::less<>> next;
  std::uint64_t total = 0;
  for (const auto& [name, bytes] : found) {
    next[name] = Entry{bytes, false, true};
    total += bytes;
  }
  // A file being written is counted as its writer last said, even if the listing missed it.
  for (const auto& [name, entry] : entries_) {
    if (!entry.writing) continue;
    if (auto it = next.find(name); it != next.end()) total -= it->second.bytes;
    next[name] = entry;
    total += entry.bytes;
  }
  entries_ = std::move(next);
  total_ = total;
}

std::vector<std::string> RetentionLedger::overBudget(std::string_view keep,
                                                    const std::function<bool(const std::string&)>& mayRemoveFound) {
  std::vector<std::string> removed;
  for (auto it = entries_.begin(); it != entries_.end() && total_ > budget_;) {
    if (it->second.writing || it->first == keep ||
        (it->second.found && mayRemoveFound && !mayRemoveFound(it->first))) {
      ++it;
      continue;
    }
    total_ -= it->second.bytes;
    removed.push_back(it->first);
    it = entries_.erase(it);
  }
  return removed;
}

} // namespace toold::core
