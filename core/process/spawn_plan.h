// The one way toold starts a program, for the daemon's runner (process_spawn) and for the clients'
// ChildProcess alike: posix_spawnp with the child's standard streams dup'ed from given
// descriptors, every other descriptor closed, every standard signal at its default and none
// blocked, and a process group or session of its own when asked. The pipes around it, and who
// waits for the child, are the callers' business.
#pragma once

#include "core/base/unique_fd.h"

#include <spawn.h>
#include <sys/types.h>

#include <string>
#include <vector>

namespace toold::core {

/// A pipe, both ends O_CLOEXEC. Throws std::system_error.
struct PipeEnds {
  UniqueFd read;
  UniqueFd write;
};
PipeEnds makePipe();

/// A descriptor the child gets as 0, 1 or 2 must not be one of those numbers already: with the
/// parent's own stdin closed, a pipe may land on 0, and the dup2 onto 0 would clobber it. Moves
/// `fd` above 2 when needed. Throws std::system_error.
void keepAboveStdio(UniqueFd& fd);

/// O_NONBLOCK on a parent's end (the child's ends are other open file descriptions and stay
/// blocking). Throws std::system_error.
void setNonBlocking(const UniqueFd& fd);

/// Everything one posix_spawnp needs, prepared before the spawn so that the spawn itself does
/// nothing that can fail but the exec. Every setter throws std::system_error naming the call.
class SpawnPlan {
public:
  enum class Isolation {
    None,         ///< the parent's process group and session
    ProcessGroup, ///< a group of its own, so a terminal's Ctrl-C reaches only the parent
    Session,      ///< a session of its own: one kill(-pgid) reaches it and all it starts, and it
                  ///< has no controlling terminal
  };

  /// `argv[0]` is searched in PATH when it has no '/'. `extraEnv` is laid over the parent's
  /// environment: "K=V" sets K, a bare "K" removes it.
  SpawnPlan(std::vector<std::string> argv, const std::vector<std::string>& extraEnv, Isolation isolation);
  ~SpawnPlan();
  SpawnPlan(const SpawnPlan&) = delete;
  SpawnPlan& operator=(const SpawnPlan&) = delete;

  /// The child starts in the folder `directory` is open on (so a bad folder is the caller's error
  /// to word, not an ENOENT that reads as a missing program).
  void changeDirectory(const UniqueFd& directory);
  /// The child's descriptor `target` (0, 1 or 2) is a copy of `from`, which keepAboveStdio moved.
  void setStream(const UniqueFd& from, int target);

  /// Closes every other descriptor in the child, then posix_spawnp. Returns 0 and sets `pid`, or
  /// the error number (a failed exec included: glibc since 2.24 waits for the exec and reports
  /// it, so it never looks like an exit status of 127). Call it once.
  int spawn(pid_t& pid);

private:
  std::vector<std::string> argv_;
  std::vector<std::string> environment_;
  std::vector<char*> argvPointers_;
  std::vector<char*> environmentPointers_;
  posix_spawn_file_actions_t actions_;
  posix_spawnattr_t attributes_;
  bool closesOthers_ = false;
};

} // namespace toold::core
