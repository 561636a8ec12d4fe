#include "builtins/search/search_budget.h"

#include <algorithm>

namespace toold::builtins::search {

namespace {

// A call's start positions: few at first, since one position of a runaway pattern can cost a
// scan of the rest of its line (60,000 letters, 0.4 ms); doubled while calls stay short and
// quartered when one is slow, so that a call lasts about a millisecond either way. A usual
// pattern reaches the maximum within a few calls, where the cost of a call (about 100 ns) is lost
// in the searching.
constexpr std::size_t kFirstStarts = 256;
constexpr std::size_t kMaxStarts = std::size_t{1} << 20;
constexpr auto kShortCall = std::chrono::microseconds(250);
constexpr auto kLongCall = std::chrono::milliseconds(2);

} // namespace

void SearchBudget::restart() {
  allowance_ = kBaseTime;
  spentTime_ = {};
  startsPerCall_ = kFirstStarts;
}

void SearchBudget::read(std::size_t bytes) {
  allowance_ += std::chrono::duration_cast<Clock::duration>(kTimePerChunk) * static_cast<std::int64_t>(bytes) /
                static_cast<std::int64_t>(kChunkBytes);
}

bool SearchBudget::spend(Clock::duration elapsed) {
  spentTime_ += elapsed;
  if (elapsed > kLongCall) startsPerCall_ = std::max<std::size_t>(1, startsPerCall_ / 4);
  else if (elapsed < kShortCall) startsPerCall_ = std::min(kMaxStarts, startsPerCall_ * 2);
  return !spent();
}

} // namespace toold::builtins::search
