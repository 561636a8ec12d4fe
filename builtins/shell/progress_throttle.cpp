#include "builtins/shell/progress_throttle.h"

#include "builtins/text/text_encoding.h"

#include <algorithm>

namespace toold::builtins {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD"; // U+FFFD

bool isContinuation(char byte) { return (static_cast<unsigned char>(byte) & 0xC0) == 0x80; }

/// `raw` as valid UTF-8: each maximal ill-formed part becomes one U+FFFD, as Unicode recommends.
/// Unless `final`, a character the end of `raw` leaves incomplete is held back: `held` is then
/// its length in bytes (else 0) and it is not in the result.
std::string toValidUtf8(std::string_view raw, bool final, std::size_t& held) {
  std::string text;
  text.reserve(raw.size());
  held = 0;
  while (!raw.empty()) {
    const std::size_t bad = firstInvalidUtf8(raw);
    if (bad == std::string_view::npos) {
      text.append(raw);
      break;
    }
    text.append(raw.substr(0, bad));
    raw.remove_prefix(bad);
    const std::size_t prefix = utf8CharacterPrefix(raw);
    if (!final && prefix == raw.size()) {
      held = raw.size();
      break;
    }
    text += kReplacement;
    raw.remove_prefix(std::max<std::size_t>(prefix, 1));
  }
  return text;
}

} // namespace

ProgressThrottle::ProgressThrottle(ProgressLimits limits) : limits_(limits) {
  // A chunk must be able to hold a whole character, or a character could be held back forever.
  limits_.chunkBytes = std::max<std::size_t>(limits_.chunkBytes, 4);
}

std::optional<ProgressUpdate> ProgressThrottle::add(std::string_view raw, Clock::time_point now) {
  if (!raw.empty()) {
    if (!pendingSince_) pendingSince_ = now;
    pending_.append(raw);
    if (slow()) keepNewest();
  }
  return flush(now);
}

std::optional<ProgressThrottle::Clock::time_point> ProgressThrottle::deadline() const {
  if (!pendingSince_) return std::nullopt;
  if (slow()) {
    const Clock::time_point batched = *pendingSince_ + limits_.interval;
    return lastSent_ ? std::max(batched, *lastSent_ + limits_.slowInterval) : batched;
  }
  if (dueAtOnce_ || pending_.size() >= limits_.chunkBytes) return *pendingSince_;
  return *pendingSince_ + limits_.interval;
}

std::optional<ProgressUpdate> ProgressThrottle::flush(Clock::time_point now) {
  const std::optional<Clock::time_point> due = deadline();
  if (!due || now < *due) return std::nullopt;
  // In slow mode pending_ holds at most chunkBytes already.
  return take(slow() ? pending_.size() : std::min(limits_.chunkBytes, pending_.size()), false, now);
}

std::optional<ProgressUpdate> ProgressThrottle::drain() {
  if (pending_.empty() && heldBack_.empty()) return std::nullopt;
  return take(pending_.size(), true, std::nullopt);
}

/// Passes over all but the newest chunkBytes waiting (slow mode), and the continuation bytes of
/// a character whose start was passed over.
void ProgressThrottle::keepNewest() {
  if (pending_.size() <= limits_.chunkBytes) return;
  std::size_t drop = pending_.size() - limits_.chunkBytes;
  for (int i = 0; i < 3 && drop < pending_.size() && isContinuation(pending_[drop]); ++i) ++drop;
  skipped_ += heldBack_.size() + drop;
  heldBack_.clear();
  pending_.erase(0, drop);
  pendingOffset_ += drop;
  if (pending_.empty()) pendingSince_.reset();
}

/// The update of the held-back character and the first `count` bytes waiting; nullopt when they
/// make up only an incomplete character, held back again.
std::optional<ProgressUpdate> ProgressThrottle::take(std::size_t count, bool final,
                                                     std::optional<Clock::time_point> now) {
  std::string raw = std::move(heldBack_);
  heldBack_.clear();
  const std::uint64_t offset = pendingOffset_ - raw.size();
  raw.append(pending_, 0, count);
  pending_.erase(0, count);
  pendingOffset_ += count;
  if (pending_.empty()) {
    pendingSince_.reset();
    dueAtOnce_ = false;
  }

  std::size_t held = 0;
  std::string text = toValidUtf8(raw, final, held);
  heldBack_.assign(raw, raw.size() - held, held);
  if (text.empty()) return std::nullopt; // skipped_ goes with the next update

  ProgressUpdate update{std::move(text), offset, skipped_};
  skipped_ = 0;
  ++sent_;
  if (now) lastSent_ = now;
  if (!pending_.empty()) {
    if (slow()) {
      keepNewest();
      dueAtOnce_ = false;
    } else {
      dueAtOnce_ = true;
    }
  }
  return update;
}

} // namespace toold::builtins
