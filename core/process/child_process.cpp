// ChildProcess: the spawn, the pipe I/O with deadlines and SIGPIPE kept away, and the reaping.
#include "core/process/child_process.h"

#include "core/process/sigpipe_block.h"
#include "core/base/unique_fd.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <utility>

extern char** environ;

namespace toold::client {
namespace {

std::system_error systemError(int error, const std::string& what) {
  return std::system_error(error, std::generic_category(), what);
}

void closeFd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

// Owns one descriptor until it is handed over, so that a failed start leaks none.
using Fd = core::UniqueFd;

struct Pipe {
  Fd read;
  Fd write;
};

Pipe makePipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw systemError(errno, "pipe");
  return {Fd(fds[0]), Fd(fds[1])};
}

Fd openFile(const std::string& path, int flags) {
  const int fd = ::open(path.c_str(), flags | O_CLOEXEC, 0644);
  if (fd < 0) throw systemError(errno, "open " + path);
  return Fd(fd);
}

/// A descriptor the child gets as 0, 1 or 2 must not be one of those numbers already: with the
/// parent's own stdin closed, a pipe may land on 0, and the dup2 onto 0 would then clobber it.
void keepAboveStdio(Fd& fd) {
  if (fd.get() < 0 || fd.get() > STDERR_FILENO) return;
  const int moved = ::fcntl(fd.get(), F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
  if (moved < 0) throw systemError(errno, "fcntl");
  fd.reset(moved);
}

/// Only the parent's ends: the child's are other open file descriptions and stay blocking.
void setNonBlocking(int fd) {
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) throw systemError(errno, "fcntl");
}

class SpawnActions {
public:
  SpawnActions() {
    if (const int error = ::posix_spawn_file_actions_init(&actions_); error != 0) throw systemError(error, "posix_spawn");
  }
  ~SpawnActions() { ::posix_spawn_file_actions_destroy(&actions_); }
  SpawnActions(const SpawnActions&) = delete;
  SpawnActions& operator=(const SpawnActions&) = delete;

  void dup2(const Fd& from, int to) {
    if (const int error = ::posix_spawn_file_actions_adddup2(&actions_, from.get(), to); error != 0)
      throw systemError(error, "posix_spawn");
  }
  const posix_spawn_file_actions_t* get() const { return &actions_; }

private:
  posix_spawn_file_actions_t actions_;
};

class SpawnAttributes {
public:
  explicit SpawnAttributes(bool newProcessGroup) {
    if (const int error = ::posix_spawnattr_init(&attributes_); error != 0) throw systemError(error, "posix_spawn");
    // Clients ignore SIGPIPE (a dead child must show as a failed write) and catch or ignore SIGINT
    // (Ctrl-C is theirs); caught signals are reset by exec, ignored ones would be inherited.
    sigset_t defaults;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    sigaddset(&defaults, SIGINT);
    ::posix_spawnattr_setsigdefault(&attributes_, &defaults);
    int flags = POSIX_SPAWN_SETSIGDEF;
    if (newProcessGroup) {
      flags |= POSIX_SPAWN_SETPGROUP;
      ::posix_spawnattr_setpgroup(&attributes_, 0);
    }
    ::posix_spawnattr_setflags(&attributes_, static_cast<short>(flags));
  }
  ~SpawnAttributes() { ::posix_spawnattr_destroy(&attributes_); }
  SpawnAttributes(const SpawnAttributes&) = delete;
  SpawnAttributes& operator=(const SpawnAttributes&) = delete;

  const posix_spawnattr_t* get() const { return &attributes_; }

private:
  posix_spawnattr_t attributes_;
};

bool sigpipeIgnored() {
  struct sigaction current {};
  ::sigaction(SIGPIPE, nullptr, &current);
  return (current.sa_flags & SA_SIGINFO) == 0 && current.sa_handler == SIG_IGN;
}

/// poll's timeout for `deadline`: none for time_point::max(); capped so that it fits an int
/// (the caller polls again until the deadline).
int pollTimeout(Clock::time_point deadline) {
  if (deadline == Clock::time_point::max()) return -1;
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return static_cast<int>(std::clamp<decltype(left)>(left, 0, 60'000));
}

/// Waits until `fd` is ready for `events`; false when it is not by `deadline`.
bool waitReady(int fd, short events, Clock::time_point deadline) {
  for (;;) {
    pollfd entry{fd, events, 0};
    const int ready = ::poll(&entry, 1, pollTimeout(deadline));
    if (ready > 0) return true;
    if (ready < 0 && errno != EINTR) throw systemError(errno, "poll");
    if (ready == 0 && Clock::now() >= deadline) return false;
  }
}

ExitStatus decode(int status) {
  if (WIFSIGNALED(status)) return {true, WTERMSIG(status)};
  return {false, WEXITSTATUS(status)};
}

} // namespace

std::string ExitStatus::describe() const {
  if (signaled) return "killed by signal " + std::to_string(value) + " (" + ::strsignal(value) + ")";
  return "exit status " + std::to_string(value);
}

int ExitStatus::shellStatus() const { return signaled ? 128 + value : value; }

// posix_spawn rather than fork: it costs the same for a small parent and a large one (the bench
// times spawns), sets the process group atomically, and in glibc (since 2.24) as in musl it waits
// for the exec and returns its errno, so a failed exec is an error here, not an exit status of 127.
ChildProcess::ChildProcess(const Options& options) : sigpipeIgnored_(sigpipeIgnored()) {
  if (options.argv.empty()) throw std::invalid_argument("no program to start");
  Pipe out = makePipe();
  Pipe in;
  Fd childStdin;
  if (options.stdinFile.empty()) {
    in = makePipe();
    childStdin = std::move(in.read);
  } else {
    childStdin = openFile(options.stdinFile, O_RDONLY);
  }
  Fd childStderr;
  if (!options.stderrFile.empty()) childStderr = openFile(options.stderrFile, O_WRONLY | O_CREAT | O_TRUNC);
  keepAboveStdio(childStdin);
  keepAboveStdio(out.write);
  keepAboveStdio(childStderr);
  setNonBlocking(out.read.get());
  if (in.write.get() >= 0) setNonBlocking(in.write.get());

  SpawnActions actions;
  actions.dup2(childStdin, STDIN_FILENO);
  actions.dup2(out.write, STDOUT_FILENO);
  if (childStderr.get() >= 0) actions.dup2(childStderr, STDERR_FILENO);
  const SpawnAttributes attributes(options.newProcessGroup);
  std::vector<char*> argv;
  for (const auto& arg : options.argv) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  if (const int error = ::posix_spawnp(&pid_, argv[0], actions.get(), attributes.get(), argv.data(), environ); error != 0)
    throw systemError(error, "cannot start " + options.argv[0]);
  // The child's ends close here with their owners; the child holds its own copies.
  stdin_ = in.write.release();
  stdout_ = out.read.release();
}

ChildProcess::~ChildProcess() {
  closeStdin();
  closeFd(stdout_);
  kill();
}

std::optional<std::size_t> ChildProcess::writeSome(std::string_view bytes) {
  if (stdin_ < 0) return std::nullopt;
  if (bytes.empty()) return 0;
  core::SigpipeBlock block(!sigpipeIgnored_);
  for (;;) {
    const ssize_t n = ::write(stdin_, bytes.data(), bytes.size());
    if (n >= 0) return static_cast<std::size_t>(n);
    if (errno == EINTR) continue;
    if (errno == EAGAIN) return 0;
    if (errno == EPIPE) {
      block.consume();
      return std::nullopt;
    }
    throw systemError(errno, "writing to the child's stdin");
  }
}

ChildProcess::WriteResult ChildProcess::writeAll(std::string_view bytes, Clock::time_point deadline) {
  while (!bytes.empty()) {
    const auto written = writeSome(bytes);
    if (!written) return WriteResult::Closed;
    bytes.remove_prefix(*written);
    if (*written == 0 && !waitReady(stdin_, POLLOUT, deadline)) return WriteResult::Timeout;
  }
  return WriteResult::Done;
}

std::optional<std::size_t> ChildProcess::readSome(std::span<char> buffer, Clock::time_point deadline) {
  if (buffer.empty()) throw std::invalid_argument("readSome needs room for at least one byte");
  if (stdout_ < 0) return 0;
  for (;;) {
    if (!waitReady(stdout_, POLLIN, deadline)) return std::nullopt;
    const ssize_t n = ::read(stdout_, buffer.data(), buffer.size());
    if (n > 0) return static_cast<std::size_t>(n);
    if (n == 0) {
      closeFd(stdout_);
      return 0;
    }
    if (errno != EINTR && errno != EAGAIN) throw systemError(errno, "reading the child's stdout");
  }
}

void ChildProcess::closeStdin() { closeFd(stdin_); }

std::optional<ExitStatus> ChildProcess::waitExit(Clock::time_point deadline) {
  // waitpid cannot wait with a timeout: poll it, with pauses that grow so that a child exiting
  // at once is seen at once and a slow one costs few wake-ups.
  std::chrono::microseconds pause(50);
  while (!reap(WNOHANG)) {
    const auto now = Clock::now();
    if (now >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::min<Clock::duration>(pause, deadline - now));
    pause = std::min(pause * 2, std::chrono::microseconds(5'000));
  }
  return exit_;
}

ExitStatus ChildProcess::kill() {
  sendSignal(SIGKILL);
  reap(0);
  return *exit_;
}

ExitStatus ChildProcess::terminate(std::chrono::milliseconds grace) {
  sendSignal(SIGTERM);
  if (auto status = waitExit(Clock::now() + grace)) return *status;
  return kill();
}

void ChildProcess::sendSignal(int signal) const {
  if (!exit_) ::kill(pid_, signal);
}

bool ChildProcess::reap(int flags) {
  if (exit_) return true;
  int status = 0;
  pid_t done = -1;
  do {
    done = ::waitpid(pid_, &status, flags);
  } while (done < 0 && errno == EINTR);
  if (done == 0) return false;
  // done < 0: no longer our child (SIGCHLD ignored, say), so there is nothing to wait for.
  exit_ = done == pid_ ? decode(status) : ExitStatus{false, -1};
  return true;
}

} // namespace toold::client
