// The validation meter: a thread-local pointer to the running validation's count.
#include "core/schema/schema_budget.h"

namespace toold::core::schema_detail {

namespace {

thread_local ValidationMeter* current = nullptr;

/// Looking at the clock and the token costs about as much as a few steps; every 256 keeps that
/// under a percent, and a cancelled validation still stops within microseconds.
constexpr std::uint64_t kCheckEvery = 256;

}  // namespace

ValidationMeter::ValidationMeter(const ValidationBudget& budget)
    : budget_(budget),
      deadline_(std::chrono::steady_clock::now() + budget.time),
      stackBase_(static_cast<const char*>(__builtin_frame_address(0))),
      previous_(current) {
  current = this;
}

ValidationMeter::~ValidationMeter() { current = previous_; }

void ValidationMeter::charge(std::uint64_t steps) {
  if (current != nullptr) current->spend(steps, static_cast<const char*>(__builtin_frame_address(0)));
}

void ValidationMeter::spend(std::uint64_t steps, const char* frame) {
  spent_ += steps;
  if (spent_ > budget_.steps) throw Stopped{Stop::OverBudget};
  // Each charge comes from inside the recursion (toold's leaf constraint, applied in every
  // subschema), so the recursion's depth is seen at every level.
  if (frame < stackBase_ && static_cast<std::size_t>(stackBase_ - frame) > ValidationBudget::kMaxStackBytes)
    throw Stopped{Stop::OverBudget};
  if (spent_ < nextCheck_) return;
  nextCheck_ = spent_ + kCheckEvery;
  if (budget_.cancellation.isCancelled()) throw Stopped{Stop::Cancelled};
  if (std::chrono::steady_clock::now() > deadline_) throw Stopped{Stop::OverBudget};
}

}  // namespace toold::core::schema_detail
