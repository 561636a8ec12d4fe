// fork/exec and poll(). The runner is single-threaded, so fork is safe without posix_spawn's care.
#include "daemon_process.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <stdexcept>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace toold::fixture {
namespace {

constexpr std::size_t kReadChunk = 64 * 1024;

int millisecondsUntil(Clock::time_point deadline) {
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
  if (left <= 0) return 0;
  return left > 60'000 ? 60'000 : static_cast<int>(left);
}

std::runtime_error systemError(const std::string& what, int error) {
  return std::runtime_error(what + ": " + std::strerror(error));
}

void closeFd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

void setNonBlocking(int fd) { ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK); }

ExitStatus decode(int status) {
  if (WIFSIGNALED(status)) return {true, WTERMSIG(status)};
  return {false, WEXITSTATUS(status)};
}

} // namespace

std::string ExitStatus::describe() const {
  if (signaled) return "killed by signal " + std::to_string(value) + " (" + strsignal(value) + ")";
  return "exit status " + std::to_string(value);
}

DaemonProcess::DaemonProcess(const ProcessConfig& config) {
  int inPipe[2] = {-1, -1};
  int outPipe[2] = {-1, -1};
  int execPipe[2] = {-1, -1}; // carries the errno of a failed exec; closed by a successful one
  int childStdin = -1;
  int childStderr = -1;
  auto fail = [&](const std::string& what, int error) {
    for (int fd : {inPipe[0], inPipe[1], outPipe[0], outPipe[1], execPipe[0], execPipe[1], childStdin, childStderr})
      if (fd >= 0) ::close(fd);
    stdinFd_ = -1;
    return systemError(what, error);
  };
  if (::pipe2(outPipe, O_CLOEXEC) != 0 || ::pipe2(execPipe, O_CLOEXEC) != 0) throw fail("pipe", errno);
  if (config.stdinFile.empty()) {
    if (::pipe2(inPipe, O_CLOEXEC) != 0) throw fail("pipe", errno);
    childStdin = inPipe[0];
    inPipe[0] = -1;
    stdinFd_ = inPipe[1];
  } else {
    childStdin = ::open(config.stdinFile.c_str(), O_RDONLY | O_CLOEXEC);
    if (childStdin < 0) throw fail("open " + config.stdinFile, errno);
  }
  childStderr = ::open(config.stderrFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (childStderr < 0) throw fail("open " + config.stderrFile, errno);

  // Everything the child touches is prepared before fork: after it, only async-signal-safe calls.
  std::vector<std::string> argvStrings{config.program};
  argvStrings.insert(argvStrings.end(), config.args.begin(), config.args.end());
  std::vector<char*> argv;
  for (auto& arg : argvStrings) argv.push_back(arg.data());
  argv.push_back(nullptr);

  pid_ = ::fork();
  if (pid_ < 0) throw fail("fork", errno);
  if (pid_ == 0) {
    ::dup2(childStdin, STDIN_FILENO);
    ::dup2(outPipe[1], STDOUT_FILENO);
    ::dup2(childStderr, STDERR_FILENO);
    // The runner ignores SIGPIPE, and an ignored signal stays ignored across exec.
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    ::sigaction(SIGPIPE, &dfl, nullptr);
    ::execvp(argv[0], argv.data());
    const int error = errno;
    [[maybe_unused]] auto n = ::write(execPipe[1], &error, sizeof error);
    ::_exit(127);
  }

  ::close(childStdin);
  ::close(childStderr);
  ::close(outPipe[1]);
  ::close(execPipe[1]);
  stdoutFd_ = outPipe[0];
  int execError = 0;
  ssize_t n = 0;
  do {
    n = ::read(execPipe[0], &execError, sizeof execError);
  } while (n < 0 && errno == EINTR);
  ::close(execPipe[0]);
  if (n == static_cast<ssize_t>(sizeof execError)) {
    kill();
    closeFd(stdoutFd_);
    closeFd(stdinFd_);
    throw systemError("cannot run " + config.program, execError);
  }
  setNonBlocking(stdoutFd_);
  if (stdinFd_ >= 0) setNonBlocking(stdinFd_);
}

DaemonProcess::~DaemonProcess() {
  if (!exit_) kill();
  closeFd(stdinFd_);
  closeFd(stdoutFd_);
}

std::string DaemonProcess::writeStdin(std::string_view bytes, Clock::time_point deadline) {
  if (stdinFd_ < 0) return "toold's stdin is already closed";
  while (!bytes.empty()) {
    const ssize_t n = ::write(stdinFd_, bytes.data(), bytes.size());
    if (n > 0) {
      bytes.remove_prefix(static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EPIPE) return "toold no longer reads its stdin (it has probably exited)";
    if (n < 0 && errno != EAGAIN && errno != EINTR)
      return std::string("writing to toold's stdin: ") + std::strerror(errno);
    if (Clock::now() >= deadline) return "writing to toold's stdin timed out: it stopped reading";
    pollfd fds[2] = {{stdinFd_, POLLOUT, 0}, {stdoutFd_, POLLIN, 0}};
    const nfds_t count = stdoutFd_ >= 0 ? 2 : 1;
    if (::poll(fds, count, millisecondsUntil(deadline)) < 0 && errno != EINTR)
      return std::string("poll: ") + std::strerror(errno);
    if (count == 2 && fds[1].revents != 0) {
      // Drain stdout so a daemon blocked writing its replies can go back to reading.
      char chunk[kReadChunk];
      const ssize_t r = ::read(stdoutFd_, chunk, sizeof chunk);
      if (r > 0) pending_.append(chunk, static_cast<std::size_t>(r));
    }
  }
  return {};
}

void DaemonProcess::closeStdin() { closeFd(stdinFd_); }

DaemonProcess::ReadStatus DaemonProcess::readStdout(std::string& out, Clock::time_point deadline) {
  if (!pending_.empty()) {
    out += pending_;
    pending_.clear();
    return ReadStatus::Data;
  }
  if (stdoutFd_ < 0) return ReadStatus::Eof;
  char chunk[kReadChunk];
  for (;;) {
    const ssize_t n = ::read(stdoutFd_, chunk, sizeof chunk);
    if (n > 0) {
      out.append(chunk, static_cast<std::size_t>(n));
      return ReadStatus::Data;
    }
    if (n == 0) {
      closeFd(stdoutFd_);
      return ReadStatus::Eof;
    }
    if (errno != EAGAIN && errno != EINTR) {
      closeFd(stdoutFd_);
      return ReadStatus::Eof;
    }
    if (Clock::now() >= deadline) return ReadStatus::Timeout;
    pollfd fd{stdoutFd_, POLLIN, 0};
    if (::poll(&fd, 1, millisecondsUntil(deadline)) == 0 && Clock::now() >= deadline) return ReadStatus::Timeout;
  }
}

std::optional<ExitStatus> DaemonProcess::waitExit(Clock::time_point deadline) {
  while (!exit_) {
    int status = 0;
    const pid_t done = ::waitpid(pid_, &status, WNOHANG);
    if (done == pid_) {
      exit_ = decode(status);
      break;
    }
    if (done < 0 && errno != EINTR) {
      exit_ = ExitStatus{false, -1}; // not our child any more; nothing to wait for
      break;
    }
    if (Clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return exit_;
}

ExitStatus DaemonProcess::kill() {
  if (exit_) return *exit_;
  ::kill(pid_, SIGKILL);
  int status = 0;
  pid_t done = -1;
  do {
    done = ::waitpid(pid_, &status, 0);
  } while (done < 0 && errno == EINTR);
  exit_ = done == pid_ ? decode(status) : ExitStatus{true, SIGKILL};
  return *exit_;
}

} // namespace toold::fixture
