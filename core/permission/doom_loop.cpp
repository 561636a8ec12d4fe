#include "core/permission/doom_loop.h"

#include <xxhash.h>

#include <algorithm>
#include <bit>
#include <functional>
#include <string_view>

namespace toold::core {

DoomLoopDetector::Entry* DoomLoopDetector::find(Ticket ticket) {
  if (ticket.run != run_) return nullptr;
  auto it = std::find_if(calls_.begin(), calls_.end(), [&](const Entry& e) { return e.position == ticket.position; });
  return it == calls_.end() ? nullptr : &*it;
}

void DoomLoopDetector::answered(Ticket ticket, std::uint64_t answer) {
  if (auto* entry = find(ticket)) entry->answer = answer;
}

void DoomLoopDetector::forget(Ticket ticket) {
  if (auto* entry = find(ticket)) calls_.erase(calls_.begin() + (entry - calls_.data()));
}

namespace {

std::uint64_t mix(std::uint64_t seed, std::uint64_t value) {
  return seed ^ (value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
}

// XXH3: the content of a read is kilobytes, and std::hash takes it a byte at a time.
std::uint64_t hashText(std::string_view text) { return XXH3_64bits(text.data(), text.size()); }

// The value's structure and bytes, hashed as they are: serialising the content first (as the
// answer is, later) escaped every string of it once more per call. Each value adds its type and
// each container its size, so that moving a value between levels changes the hash.
std::uint64_t hashValue(std::uint64_t seed, const nlohmann::json& value) {
  using Type = nlohmann::json::value_t;
  seed = mix(seed, static_cast<std::uint64_t>(value.type()));
  switch (value.type()) {
  case Type::object:
    for (const auto& [key, member] : value.get_ref<const nlohmann::json::object_t&>())
      seed = hashValue(mix(seed, hashText(key)), member);
    return mix(seed, value.size());
  case Type::array:
    for (const auto& element : value) seed = hashValue(seed, element);
    return mix(seed, value.size());
  case Type::string: return mix(seed, hashText(value.get_ref<const std::string&>()));
  case Type::boolean: return mix(seed, value.get<bool>() ? 1 : 0);
  case Type::number_integer: return mix(seed, static_cast<std::uint64_t>(value.get<std::int64_t>()));
  case Type::number_unsigned: return mix(seed, value.get<std::uint64_t>());
  case Type::number_float: return mix(seed, std::bit_cast<std::uint64_t>(value.get<double>()));
  case Type::binary:
    return mix(seed, hashText(std::string_view(reinterpret_cast<const char*>(value.get_binary().data()),
                                               value.get_binary().size())));
  case Type::null:
  case Type::discarded: return seed;
  }
  return seed;
}

} // namespace

DoomLoopDetector::Started DoomLoopDetector::start(std::string_view tool, const nlohmann::json& input) {
  // The input's fingerprint, as answers are compared: keeping a copy of the input cost a copy of
  // every file a `write` sends, and comparing it a pass over both.
  const std::uint64_t print = hashValue(0, input);
  if (run_ == 0 || tool_ != tool || input_ != print) {
    tool_ = std::string(tool);
    input_ = print;
    ++run_;
    next_ = 0;
    calls_.clear();
  }
  Started started{Ticket{run_, next_++}, false};
  if (calls_.size() >= kRepeats - 1) {
    const auto first = calls_.end() - static_cast<std::ptrdiff_t>(kRepeats - 1);
    started.suspect = std::all_of(first, calls_.end(), [&](const Entry& entry) {
      return entry.answer.has_value() && first->answer.has_value() && *entry.answer == *first->answer;
    });
  }
  calls_.push_back(Entry{started.ticket.position, std::nullopt});
  // Only the newest answers are ever compared: a long run keeps no more than those.
  if (calls_.size() > kRepeats) calls_.erase(calls_.begin());
  return started;
}

std::uint64_t DoomLoopDetector::fingerprint(bool completed, const nlohmann::json& content, std::string_view error) {
  return hashValue(mix(completed ? 1 : 2, hashText(error)), content);
}

} // namespace toold::core
