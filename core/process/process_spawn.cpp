// spawnProcess: the runner's pipes and the ChildTable entry around one SpawnPlan.
#include "core/process/process_spawn.h"

#include "core/process/child_table.h"
#include "core/process/process_runner.h"
#include "core/process/spawn_plan.h"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <mutex>
#include <system_error>

namespace toold::core {

namespace {
// TOOLD_NO_PIDFD set: behave as on a kernel without pidfd_open, to test the polled exit here.
bool pidfdRefused() {
  static const bool refused = std::getenv("TOOLD_NO_PIDFD") != nullptr;
  return refused;
}
} // namespace

namespace {

std::string errnoText(int error) {
  char buffer[256];
  return ::strerror_r(error, buffer, sizeof buffer); // the GNU variant: returns the text
}

constexpr int kOutputPipeBytes = 1 << 20;

} // namespace

SpawnedProcess spawnProcess(const ProcessSpec& spec, ChildTable::Owner owner) {
  SpawnedProcess result;
  if (spec.argv.empty() || spec.argv.front().empty()) {
    result.error = "cannot run a command without a program name";
    return result;
  }
  const std::string program = "cannot run \"" + spec.argv.front() + "\"";
  try {
    SpawnPlan plan(spec.argv, spec.extraEnv, SpawnPlan::Isolation::Session);
    // The directory is opened here rather than named to the child, so that a bad one gets a
    // message naming it rather than an ENOENT that reads as a missing program.
    UniqueFd directory;
    if (!spec.cwd.empty()) {
      directory.reset(::open(spec.cwd.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
      if (!directory) {
        result.error = program + ": working directory \"" + spec.cwd.string() + "\": " + errnoText(errno);
        return result;
      }
      plan.changeDirectory(directory);
    }

    UniqueFd childStdin;
    if (spec.stdinData) {
      PipeEnds in = makePipe();
      childStdin = std::move(in.read);
      result.stdinPipe = std::move(in.write);
    } else {
      childStdin.reset(::open("/dev/null", O_RDONLY | O_CLOEXEC));
      if (!childStdin) throw std::system_error(errno, std::generic_category(), "open /dev/null");
    }
    PipeEnds out = makePipe();
    // A larger pipe lets a chatty child write more before it blocks: fewer wake-ups per byte read.
    // Best effort: the system's limit (pipe-max-size) may refuse it, and 64 KiB still works.
    ::fcntl(out.read.get(), F_SETPIPE_SZ, kOutputPipeBytes);
    result.stdoutPipe = std::move(out.read);
    PipeEnds err;
    if (!spec.mergeOutput) {
      err = makePipe();
      result.stderrPipe = std::move(err.read);
    }
    keepAboveStdio(childStdin);
    keepAboveStdio(out.write);
    keepAboveStdio(err.write);
    for (const UniqueFd* end : {&result.stdinPipe, &result.stdoutPipe, &result.stderrPipe})
      if (*end) setNonBlocking(*end);

    plan.setStream(childStdin, STDIN_FILENO);
    plan.setStream(out.write, STDOUT_FILENO);
    plan.setStream(spec.mergeOutput ? out.write : err.write, STDERR_FILENO);

    bool attempted = false;
    int spawnError = 0;
    int pidfdError = 0;
    pid_t pid = -1;
    const ChildTable::ChildId id = ChildTable::instance().spawn(owner, [&]() -> pid_t {
      attempted = true;
      pid_t child = -1;
      spawnError = plan.spawn(child);
      if (spawnError != 0) return -1;
      pid = child;
      // Opened before anyone can reap the child (the table's lock keeps the orphan reaper out),
      // so the pid cannot have been reused yet. ESRCH: something outside toold reaped it already
      // (SIGCHLD ignored, someone's waitpid(-1)); the runner then finds its status lost.
      const long pidfd = pidfdRefused() ? (errno = ENOSYS, -1L) : ::syscall(SYS_pidfd_open, child, 0);
      if (pidfd >= 0)
        result.pidfd.reset(static_cast<int>(pidfd));
      else if (errno == ENOSYS || errno == EPERM || errno == EACCES)
        result.exitPolled = true;
      else if (errno != ESRCH)
        pidfdError = errno;
      return child;
    });
    if (!attempted) {
      result.error = program + ": toold is shutting down";
      return result;
    }
    if (spawnError != 0) {
      result.error = program + ": " + errnoText(spawnError);
      return result;
    }
    if (pidfdError != 0) {
      // Without a way to see it exit the child cannot be run; it has done nothing yet worth keeping.
      ChildTable::instance().release(id, std::chrono::seconds(2));
      throw std::system_error(pidfdError, std::generic_category(), "pidfd_open");
    }
    if (result.exitPolled) {
      static std::once_flag told;
      std::call_once(told, [] {
        spdlog::warn("pidfd_open is not available here (an old kernel, a strict seccomp policy or valgrind): "
                     "toold polls for its commands' exits instead");
      });
    }
    result.id = id;
    result.pid = pid;
  } catch (const std::system_error& failure) {
    result = SpawnedProcess{};
    result.error = program + ": " + failure.what();
  }
  return result;
}

} // namespace toold::core
