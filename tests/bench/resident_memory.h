// A server's resident memory, read from /proc: what the benchmark reports next to its speed.
#pragma once

#include <sys/types.h>

#include <cstddef>

namespace toold::bench {

/// Resident memory of `pid` and all its descendants (a wrapper script must not hide the real
/// server), from VmRSS in /proc, in KiB.
std::size_t residentKiB(pid_t pid);

/// The process's own memory (not its children's), from /proc/PID/smaps_rollup: resident, and the
/// part of it no other process shares (Private_Clean + Private_Dirty), and of that the part written
/// (Private_Dirty: heap, stacks, relocated data), in KiB. Zeros when unreadable. A second copy of a
/// server shares its clean code pages with the first, so the written part is what each further
/// copy costs; the private part counts the code too while one copy runs.
struct OwnMemory {
  std::size_t residentKiB = 0;
  std::size_t privateKiB = 0;
  std::size_t writtenKiB = 0;
};
OwnMemory ownMemory(pid_t pid);

} // namespace toold::bench
