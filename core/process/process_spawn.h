// Starting one child process for a ProcessRunner: a new session and process group, stdin from
// given bytes or /dev/null, stdout and stderr into pipes, nothing else inherited. No I/O and no
// waiting here; the runner drives the descriptors this returns.
#pragma once

#include "core/process/child_table.h"
#include "core/base/unique_fd.h"

#include <sys/types.h>

#include <string>
#include <utility>

namespace toold::core {

struct ProcessSpec;

/// The parent's side of a started child. Every descriptor is O_CLOEXEC and non-blocking.
struct SpawnedProcess {
  ChildTable::ChildId id = 0; ///< its entry in the ChildTable; 0 when it did not start
  pid_t pid = -1;        ///< also its process group id and session id; -1 when it did not start
  UniqueFd pidfd;        ///< readable once it has exited; empty when it was reaped before it could be opened
  /// The kernel refused pidfd_open (ENOSYS on an old kernel, EPERM/EACCES under a strict seccomp
  /// policy or valgrind): no pidfd, and the exit is polled for instead.
  bool exitPolled = false;
  UniqueFd stdinPipe;    ///< the write end of its stdin; empty when stdin is /dev/null
  UniqueFd stdoutPipe;   ///< the read end of its stdout (and stderr when merged)
  UniqueFd stderrPipe;   ///< the read end of its stderr; empty when merged into stdout
  std::string error;     ///< why it did not start: `cannot run "foo": No such file or directory`
};

/// Starts `spec.argv` (argv[0] searched in toold's PATH when it has no '/'; a relative path is
/// taken from `spec.cwd`) and enters it in the ChildTable for `owner`. Failures, including a
/// failed exec, come back in `error` with pid -1, never as an exception or a child that exits 127.
SpawnedProcess spawnProcess(const ProcessSpec& spec, ChildTable::Owner owner);

} // namespace toold::core
