// A server's CPU time, read while it runs: what a request costs the server itself, apart from the
// wall time a round trip also spends in the client, the pipes and the scheduler.
#pragma once

#include <sys/types.h>

#include <optional>

namespace toold::bench {

/// The CPU time `pid` has used so far, all its threads together (those that ended included), in
/// seconds: the counter behind /proc/PID/stat's utime + stime, read in nanoseconds through the
/// process's CPU clock, else from /proc/PID/stat in clock ticks. Empty when neither can be read.
std::optional<double> processCpuSeconds(pid_t pid);

} // namespace toold::bench
