#include "core/output/recent_outputs.h"

#include <algorithm>
#include <random>

#include <xxhash.h>

namespace toold::core {

TextHash RecentOutputs::hashOf(std::string_view text) {
  static const XXH64_hash_t seed = [] {
    std::random_device device;
    return (static_cast<XXH64_hash_t>(device()) << 32) | device();
  }();
  const XXH128_hash_t hash = XXH3_128bits_withSeed(text.data(), text.size(), seed);
  return TextHash{hash.low64, hash.high64};
}

std::optional<RecentOutputs::Entry> RecentOutputs::find(const TextHash& hash, std::uint64_t size) const {
  for (auto entry = entries_.rbegin(); entry != entries_.rend(); ++entry)
    if (entry->hash == hash && entry->size == size) return *entry;
  return std::nullopt;
}

void RecentOutputs::remember(std::string name, const TextHash& hash, std::uint64_t size, const KeptFileSeen& seen) {
  forget(name);
  entries_.push_back(Entry{std::move(name), hash, size, seen});
  if (entries_.size() > kRemembered) entries_.pop_front();
}

void RecentOutputs::saw(std::string_view name, const KeptFileSeen& seen) {
  for (auto& entry : entries_)
    if (entry.name == name) entry.seen = seen;
}

void RecentOutputs::forget(std::string_view name) {
  std::erase_if(entries_, [&](const Entry& entry) { return entry.name == name; });
}

} // namespace toold::core
