// spawnProcess: posix_spawnp with a new session, the pipes, a clean signal state and environment.
#include "core/process/process_spawn.h"

#include "core/process/child_table.h"
#include "core/process/process_runner.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <string_view>
#include <vector>

extern char** environ;

namespace toold::core {

namespace {

std::string errnoText(int error) {
  char buffer[256];
  return ::strerror_r(error, buffer, sizeof buffer); // the GNU variant: returns the text
}

/// Thrown inside spawnProcess only, and turned into SpawnedProcess::error there.
struct SpawnFailure {
  std::string what;
  int error;
};

constexpr int kOutputPipeBytes = 1 << 20;

struct PipeEnds {
  UniqueFd read;
  UniqueFd write;
};

PipeEnds makePipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw SpawnFailure{"pipe", errno};
  return {UniqueFd(fds[0]), UniqueFd(fds[1])};
}

/// A descriptor the child gets as 0, 1 or 2 must not be one of those numbers already: with
/// toold's own stdin closed, a pipe may land on 0, and the dup2 onto 0 would clobber it.
void keepAboveStdio(UniqueFd& fd) {
  if (fd.get() > STDERR_FILENO) return;
  const int moved = ::fcntl(fd.get(), F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
  if (moved < 0) throw SpawnFailure{"fcntl", errno};
  fd.reset(moved);
}

/// Only the parent's ends: the child's are other open file descriptions and stay blocking.
void setNonBlocking(const UniqueFd& fd) {
  const int flags = ::fcntl(fd.get(), F_GETFL);
  if (flags < 0 || ::fcntl(fd.get(), F_SETFL, flags | O_NONBLOCK) < 0) throw SpawnFailure{"fcntl", errno};
}

void check(int error, const char* what) {
  if (error != 0) throw SpawnFailure{what, error};
}

class FileActions {
public:
  FileActions() { check(::posix_spawn_file_actions_init(&actions_), "posix_spawn_file_actions_init"); }
  ~FileActions() { ::posix_spawn_file_actions_destroy(&actions_); }
  FileActions(const FileActions&) = delete;
  FileActions& operator=(const FileActions&) = delete;

  void changeDirectory(const UniqueFd& directory) {
    check(::posix_spawn_file_actions_addfchdir_np(&actions_, directory.get()), "posix_spawn_file_actions_addfchdir_np");
  }
  void dup2(const UniqueFd& from, int to) {
    check(::posix_spawn_file_actions_adddup2(&actions_, from.get(), to), "posix_spawn_file_actions_adddup2");
  }
  /// Whatever descriptor toold leaked without O_CLOEXEC (a library, another thread between
  /// pipe() and fcntl()) would otherwise keep a pipe open in every child and its descendants.
  void closeFrom(int lowest) {
    check(::posix_spawn_file_actions_addclosefrom_np(&actions_, lowest), "posix_spawn_file_actions_addclosefrom_np");
  }
  const posix_spawn_file_actions_t* get() const { return &actions_; }

private:
  posix_spawn_file_actions_t actions_;
};

class SpawnAttributes {
public:
  SpawnAttributes() {
    check(::posix_spawnattr_init(&attributes_), "posix_spawnattr_init");
    // Ignored signals survive exec: were SIGPIPE ignored in toold (by a library, say), a child
    // would not die writing into a closed pipe (`yes | head` would spin), and an ignored SIGCHLD
    // would lose a shell its jobs' statuses. Blocked signals survive too, and a child starts with
    // the mask of whichever thread spawned it. So every standard signal starts at its default,
    // unblocked.
    sigset_t defaults;
    sigemptyset(&defaults);
    for (int signal = 1; signal < 32; ++signal) // the standard signals; real-time ones are left alone
      if (signal != SIGKILL && signal != SIGSTOP) sigaddset(&defaults, signal);
    sigset_t mask;
    sigemptyset(&mask);
    check(::posix_spawnattr_setsigdefault(&attributes_, &defaults), "posix_spawnattr_setsigdefault");
    check(::posix_spawnattr_setsigmask(&attributes_, &mask), "posix_spawnattr_setsigmask");
    // A session of its own makes the child the leader of a new process group, so that one
    // kill(-pgid) reaches it and everything it starts (unless they call setsid themselves), and
    // detaches it from toold's controlling terminal.
    constexpr int flags = POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK;
    check(::posix_spawnattr_setflags(&attributes_, static_cast<short>(flags)), "posix_spawnattr_setflags");
  }
  ~SpawnAttributes() { ::posix_spawnattr_destroy(&attributes_); }
  SpawnAttributes(const SpawnAttributes&) = delete;
  SpawnAttributes& operator=(const SpawnAttributes&) = delete;

  const posix_spawnattr_t* get() const { return &attributes_; }

private:
  posix_spawnattr_t attributes_;
};

std::string_view variableName(std::string_view entry) { return entry.substr(0, entry.find('=')); }

/// toold's environment with `extra` laid over it: "K=V" sets K, a bare "K" removes it.
std::vector<std::string> childEnvironment(const std::vector<std::string>& extra) {
  std::vector<std::string> result;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string_view name = variableName(*entry);
    bool overridden = false;
    for (const auto& item : extra) overridden = overridden || variableName(item) == name;
    if (!overridden) result.emplace_back(*entry);
  }
  for (const auto& item : extra)
    if (item.find('=') != std::string::npos) result.push_back(item);
  return result;
}

std::vector<char*> pointers(const std::vector<std::string>& strings) {
  std::vector<char*> result;
  result.reserve(strings.size() + 1);
  for (const auto& item : strings) result.push_back(const_cast<char*>(item.c_str()));
  result.push_back(nullptr);
  return result;
}

} // namespace

// posix_spawn rather than fork: glibc runs the child with CLONE_VFORK on a small stack of its own,
// so a spawn costs the same whatever toold's size, nothing in the child can touch toold's heap or
// locks, and it returns the errno of a failed exec instead of a child exiting 127.
SpawnedProcess spawnProcess(const ProcessSpec& spec, ChildTable::Owner owner) {
  SpawnedProcess result;
  if (spec.argv.empty() || spec.argv.front().empty()) {
    result.error = "cannot run a command without a program name";
    return result;
  }
  const std::string program = "cannot run \"" + spec.argv.front() + "\"";
  try {
    FileActions actions;
    // The directory is opened here rather than named to the child, so that a bad one gets a
    // message naming it rather than an ENOENT that reads as a missing program.
    UniqueFd directory;
    if (!spec.cwd.empty()) {
      directory.reset(::open(spec.cwd.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
      if (!directory) {
        result.error = program + ": working directory \"" + spec.cwd.string() + "\": " + errnoText(errno);
        return result;
      }
      actions.changeDirectory(directory);
    }

    UniqueFd childStdin;
    if (spec.stdinData) {
      PipeEnds in = makePipe();
      childStdin = std::move(in.read);
      result.stdinPipe = std::move(in.write);
    } else {
      childStdin.reset(::open("/dev/null", O_RDONLY | O_CLOEXEC));
      if (!childStdin) throw SpawnFailure{"open /dev/null", errno};
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
    if (err.write) keepAboveStdio(err.write);
    for (const UniqueFd* end : {&result.stdinPipe, &result.stdoutPipe, &result.stderrPipe})
      if (*end) setNonBlocking(*end);

    actions.dup2(childStdin, STDIN_FILENO);
    actions.dup2(out.write, STDOUT_FILENO);
    actions.dup2(spec.mergeOutput ? out.write : err.write, STDERR_FILENO);
    actions.closeFrom(STDERR_FILENO + 1);
    const SpawnAttributes attributes;
    const std::vector<char*> argv = pointers(spec.argv);
    const std::vector<std::string> environment = childEnvironment(spec.extraEnv);
    const std::vector<char*> envp = pointers(environment);

    bool attempted = false;
    int spawnError = 0;
    int pidfdError = 0;
    pid_t pid = -1;
    const ChildTable::ChildId id = ChildTable::instance().spawn(owner, [&]() -> pid_t {
      attempted = true;
      pid_t child = -1;
      spawnError = ::posix_spawnp(&child, argv[0], actions.get(), attributes.get(), argv.data(), envp.data());
      if (spawnError != 0) return -1;
      pid = child;
      // Opened before anyone can reap the child (the table's lock keeps the orphan reaper out),
      // so the pid cannot have been reused yet. ESRCH: something outside toold reaped it already
      // (SIGCHLD ignored, someone's waitpid(-1)); the runner then finds its status lost.
      const long pidfd = ::syscall(SYS_pidfd_open, child, 0);
      if (pidfd >= 0)
        result.pidfd.reset(static_cast<int>(pidfd));
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
      throw SpawnFailure{"pidfd_open", pidfdError};
    }
    result.id = id;
    result.pid = pid;
  } catch (const SpawnFailure& failure) {
    result = SpawnedProcess{};
    result.error = program + ": " + failure.what + ": " + errnoText(failure.error);
  }
  return result;
}

} // namespace toold::core
