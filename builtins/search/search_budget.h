// How long the search of one file may keep the regex engine busy, and how many start positions
// one call of the engine may try so that the time is looked at often enough to hold.
//
// PCRE2's own limits do not bound a search. The interpreter counts its match limit per start
// position, and the JIT does not count a possessive repeat at all: `\p{L}{1,600}!` over 1 MB of
// letters ran 3.6 s under the JIT with a match limit of 10, and `\p{L}{1,60000}!` over 16 MB would
// run for hours, each start position scanning 60,000 letters. So the searcher hands the engine a
// bounded number of start positions per call (PCRE2's offset limit), asks the budget after every
// call, and gives the file up once the budget is spent.
//
// The budget is time in the engine, not wall time, so a slow disk does not eat it: kBaseTime for
// any file, plus kTimePerChunk for every kChunkBytes read, so that a regex the JIT runs at a usual
// speed never meets it on a large file while a runaway one is stopped within about a second.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>

namespace toold::builtins::search {

class SearchBudget {
public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::chrono::milliseconds kBaseTime{1000};
  static constexpr std::chrono::milliseconds kTimePerChunk{1000};
  static constexpr std::uint64_t kChunkBytes = 16 * 1024 * 1024;

  /// A new file: nothing spent, nothing read, calls small again.
  void restart();
  /// `bytes` more of the file were read: the budget grows by their share.
  void read(std::size_t bytes);
  /// How many start positions the next call of the engine may try (at least 1).
  std::size_t startsPerCall() const { return startsPerCall_; }
  /// Accounts for one call of the engine that took `elapsed`, and sizes the next call from it.
  /// False once the budget is spent.
  bool spend(Clock::duration elapsed);
  /// Whether the budget was spent.
  bool spent() const { return spentTime_ > allowance_; }

private:
  Clock::duration allowance_{};
  Clock::duration spentTime_{};
  std::size_t startsPerCall_ = 0;
};

} // namespace toold::builtins::search
