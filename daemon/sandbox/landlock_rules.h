// Landlock for the sandbox launcher: the kernel's own allow-list of file hierarchies, applied to
// the launcher itself just before it execs the command, and inherited by all the command starts.
// Unlike a scan of the command line, it sees every open, whatever spelled the path (variables,
// interpreters, scripts, /dev/fd/.. tricks, paths read from stdin).
//
// The rights asked of the kernel are those of the ABI it has (1 to 7 today): a newer kernel's
// rights the launcher does not know are simply not restricted, an older kernel's missing ones are
// left out rather than refused.
#pragma once

#include <string>
#include <vector>

namespace toold::sandbox_launch {

/// The highest Landlock ABI the kernel offers; 0 when it has none (not built in, or disabled).
int landlockAbi();

struct LandlockPlan {
  std::vector<std::string> read;    ///< read, list, execute
  std::vector<std::string> write;   ///< everything
  std::vector<std::string> devices; ///< read, write, ioctl (device nodes: /dev/null, /dev/tty, ...)
  bool noNetwork = false;           ///< no TCP bind or connect; no abstract UNIX socket outside
};

/// Restricts the calling thread (and what it execs) to `plan`. Paths that do not exist are
/// skipped. Sets no_new_privs. Returns an empty string, or why it could not (the caller refuses
/// to run the command then).
std::string restrictWithLandlock(const LandlockPlan& plan);

} // namespace toold::sandbox_launch
