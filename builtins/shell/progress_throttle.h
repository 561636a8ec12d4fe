// Live output for the client's UI (`tool/progress`), throttled so that a command printing a
// gigabyte neither floods the client nor slows the command: an update is due when 8 KiB are
// waiting or 100 ms after the first byte that waits, whichever comes first. After the first
// `fullUpdates` updates (a chatty command) only one update a second is sent, holding the newest
// bytes, and the bytes passed over are counted. Time is given by the caller, so the logic is
// testable without a clock.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace toold::builtins {

struct ProgressLimits {
  std::size_t chunkBytes = 8 * 1024; ///< taken as 4 when smaller: a UTF-8 character must fit
  std::chrono::milliseconds interval{100};
  std::size_t fullUpdates = 1000;
  std::chrono::milliseconds slowInterval{1000};
};

struct ProgressUpdate {
  /// Valid UTF-8: an incomplete character at the end is held back for the next update; ill-formed
  /// bytes become U+FFFD. At most chunkBytes of raw bytes (plus a held-back character).
  std::string text;
  std::uint64_t offset = 0;  ///< raw offset in the output of the first byte of `text`
  std::uint64_t skipped = 0; ///< raw bytes passed over just before `offset` (slow mode only)
};

class ProgressThrottle {
public:
  using Clock = std::chrono::steady_clock;

  explicit ProgressThrottle(ProgressLimits limits = {});

  /// New raw output at `now`. Returns the update due now, if any (at most one: when more than
  /// chunkBytes wait, the update carries the first chunkBytes in full mode and the rest waits,
  /// due at once — call flush(now) until it returns nothing; in slow mode only the newest
  /// chunkBytes are kept and the older ones counted as skipped).
  std::optional<ProgressUpdate> add(std::string_view raw, Clock::time_point now);

  /// When the caller should call flush next; nullopt when nothing waits. In slow mode: interval
  /// after the first waiting byte, but not before slowInterval after the last update.
  std::optional<Clock::time_point> deadline() const;

  /// The update due at `now`, if any.
  std::optional<ProgressUpdate> flush(Clock::time_point now);

  /// Everything still waiting, whatever the time (the command ended), in one update: more than
  /// chunkBytes only when the caller did not flush as told. A character left incomplete at the
  /// end becomes U+FFFD. nullopt when nothing waits.
  std::optional<ProgressUpdate> drain();

  std::size_t updatesSent() const { return sent_; }

private:
  bool slow() const { return sent_ >= limits_.fullUpdates; }
  void keepNewest();
  std::optional<ProgressUpdate> take(std::size_t count, bool final, std::optional<Clock::time_point> now);

  ProgressLimits limits_;
  /// Raw bytes not sent yet, the first at pendingOffset_; at most chunkBytes in slow mode (the
  /// older ones are passed over and counted in skipped_).
  std::string pending_;
  std::uint64_t pendingOffset_ = 0;
  std::uint64_t skipped_ = 0;
  /// When the oldest of pending_ arrived; nullopt when pending_ is empty (a held-back character
  /// alone waits for the bytes that complete it, not for a deadline).
  std::optional<Clock::time_point> pendingSince_;
  std::optional<Clock::time_point> lastSent_;
  std::size_t sent_ = 0;
  /// In full mode, what is left of a batch larger than chunkBytes is due at once.
  bool dueAtOnce_ = false;
  /// An incomplete UTF-8 character carried to the next update; its raw offset is
  /// pendingOffset_ - heldBack_.size().
  std::string heldBack_;
};

} // namespace toold::builtins
