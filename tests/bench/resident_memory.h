// A server's resident memory, read from /proc: what the benchmark reports next to its speed.
#pragma once

#include <sys/types.h>

#include <cstddef>

namespace toold::bench {

/// Resident memory of `pid` and all its descendants (a wrapper script must not hide the real
/// server), from VmRSS in /proc, in KiB.
std::size_t residentKiB(pid_t pid);

} // namespace toold::bench
