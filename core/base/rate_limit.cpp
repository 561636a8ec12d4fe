#include "core/base/rate_limit.h"

#include <algorithm>
#include <utility>

namespace toold::core {

bool RateLimit::allow(Clock::time_point now) {
  if (started_) {
    const std::chrono::duration<double> elapsed = now - last_;
    tokens_ = std::min(burst_, tokens_ + std::max(0.0, elapsed.count()) * perSecond_);
  }
  started_ = true;
  last_ = now;
  if (tokens_ >= 1.0) {
    tokens_ -= 1.0;
    return true;
  }
  ++dropped_;
  return false;
}

std::uint64_t RateLimit::takeDropped() { return std::exchange(dropped_, 0); }

} // namespace toold::core
