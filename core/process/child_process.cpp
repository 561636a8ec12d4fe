// ChildProcess: the pipe I/O with deadlines and SIGPIPE kept away, and the reaping.
#include "core/process/child_process.h"

#include "core/base/unique_fd.h"
#include "core/process/sigpipe_block.h"
#include "core/process/spawn_plan.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <utility>

namespace toold::client {
namespace {

std::system_error systemError(int error, const std::string& what) {
  return std::system_error(error, std::generic_category(), what);
}

void closeFd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

using Fd = core::UniqueFd;

Fd openFile(const std::string& path, int flags) {
  const int fd = ::open(path.c_str(), flags | O_CLOEXEC, 0644);
  if (fd < 0) throw systemError(errno, "open " + path);
  return Fd(fd);
}

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

ChildProcess::ChildProcess(const Options& options) : sigpipeIgnored_(sigpipeIgnored()) {
  if (options.argv.empty()) throw std::invalid_argument("no program to start");
  core::SpawnPlan plan(options.argv, {},
                       options.newProcessGroup ? core::SpawnPlan::Isolation::ProcessGroup : core::SpawnPlan::Isolation::None);
  core::PipeEnds out = core::makePipe();
  core::PipeEnds in;
  Fd childStdin;
  if (options.stdinFile.empty()) {
    in = core::makePipe();
    childStdin = std::move(in.read);
  } else {
    childStdin = openFile(options.stdinFile, O_RDONLY);
  }
  Fd childStderr;
  if (!options.stderrFile.empty()) childStderr = openFile(options.stderrFile, O_WRONLY | O_CREAT | O_TRUNC);
  core::keepAboveStdio(childStdin);
  core::keepAboveStdio(out.write);
  core::keepAboveStdio(childStderr);
  core::setNonBlocking(out.read);
  if (in.write) core::setNonBlocking(in.write);

  plan.setStream(childStdin, STDIN_FILENO);
  plan.setStream(out.write, STDOUT_FILENO);
  if (childStderr) plan.setStream(childStderr, STDERR_FILENO);
  if (const int error = plan.spawn(pid_); error != 0) throw systemError(error, "cannot start " + options.argv[0]);
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
