// A token bucket: at most `perSecond` events a second on average, `burst` at once. For what a
// peer may make toold do without bound, such as log: a hostile MCP server once sent 287,838 log
// messages in 14 s, each a line in toold's log. Not thread-safe: one owner, one thread.
#pragma once

#include <chrono>
#include <cstdint>

namespace toold::core {

class RateLimit {
public:
  using Clock = std::chrono::steady_clock;

  RateLimit(double perSecond, double burst) : perSecond_(perSecond), burst_(burst), tokens_(burst) {}

  /// Whether one more event may pass at `now`; if not, it is counted as dropped.
  bool allow(Clock::time_point now = Clock::now());

  /// The events dropped since the last call, and the count starts again.
  std::uint64_t takeDropped();

private:
  double perSecond_;
  double burst_;
  double tokens_;
  Clock::time_point last_{};
  bool started_ = false;
  std::uint64_t dropped_ = 0;
};

} // namespace toold::core
