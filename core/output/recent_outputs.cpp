#include "core/output/recent_outputs.h"

#include <algorithm>
#include <functional>

namespace toold::core {

std::uint64_t RecentOutputs::hashOf(std::string_view text) {
  return std::hash<std::string_view>{}(text);
}

std::optional<std::string> RecentOutputs::find(std::uint64_t hash, std::uint64_t size) const {
  for (auto entry = entries_.rbegin(); entry != entries_.rend(); ++entry)
    if (entry->hash == hash && entry->size == size) return entry->name;
  return std::nullopt;
}

void RecentOutputs::remember(std::string name, std::uint64_t hash, std::uint64_t size) {
  forget(name);
  entries_.push_back(Entry{std::move(name), hash, size});
  if (entries_.size() > kRemembered) entries_.pop_front();
}

void RecentOutputs::forget(std::string_view name) {
  std::erase_if(entries_, [&](const Entry& entry) { return entry.name == name; });
}

} // namespace toold::core
