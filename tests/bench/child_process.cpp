// posix_spawn rather than fork: it uses vfork semantics, so spawning costs the same for a small
// client and a large one, and the spawn latency measured is the server's, not the client's.
#include "tests/bench/child_process.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdexcept>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace toold::bench {
namespace {

std::runtime_error systemError(const std::string& what, int error) {
  return std::runtime_error(what + ": " + std::strerror(error));
}

void closeFd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

std::size_t vmRssKiB(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stoul(line.substr(6));
  }
  return 0;
}

// Children of every thread of `pid`; needs CONFIG_PROC_CHILDREN, else only the process itself counts.
std::vector<pid_t> childrenOf(pid_t pid) {
  std::vector<pid_t> children;
  const std::string taskDir = "/proc/" + std::to_string(pid) + "/task/";
  std::ifstream tasks(taskDir + std::to_string(pid) + "/children");
  pid_t child = 0;
  while (tasks >> child) children.push_back(child);
  return children;
}

std::size_t treeRssKiB(pid_t pid, int depth) {
  std::size_t total = vmRssKiB(pid);
  if (depth > 16) return total;
  for (pid_t child : childrenOf(pid)) total += treeRssKiB(child, depth + 1);
  return total;
}

} // namespace

ChildProcess::ChildProcess(const std::vector<std::string>& argv, bool keepStderr) {
  if (argv.empty()) throw std::runtime_error("empty server command");
  int in[2];
  int out[2];
  if (::pipe2(in, O_CLOEXEC) != 0) throw systemError("pipe", errno);
  if (::pipe2(out, O_CLOEXEC) != 0) {
    const int error = errno;
    ::close(in[0]);
    ::close(in[1]);
    throw systemError("pipe", error);
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  if (!keepStderr) posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);

  std::vector<char*> args;
  for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  const int error = ::posix_spawnp(&pid_, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(in[0]);
  ::close(out[1]);
  stdin_ = in[1];
  stdout_ = out[0];
  if (error != 0) {
    closeFd(stdin_);
    closeFd(stdout_);
    throw systemError("cannot start " + argv[0], error);
  }
}

ChildProcess::~ChildProcess() {
  closeStdin();
  if (!reaped_) wait(std::chrono::milliseconds(0));
  closeFd(stdout_);
}

void ChildProcess::writeAll(std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(stdin_, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      throw systemError("writing to the server", errno);
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

std::size_t ChildProcess::readSome(char* buffer, std::size_t size, std::chrono::milliseconds timeout) {
  for (;;) {
    pollfd fd{stdout_, POLLIN, 0};
    const int ready = ::poll(&fd, 1, static_cast<int>(timeout.count()));
    if (ready < 0) {
      if (errno == EINTR) continue;
      throw systemError("poll", errno);
    }
    if (ready == 0) throw std::runtime_error("the server did not answer within " + std::to_string(timeout.count()) + " ms");
    const ssize_t n = ::read(stdout_, buffer, size);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      throw systemError("reading from the server", errno);
    }
    return static_cast<std::size_t>(n);
  }
}

void ChildProcess::closeStdin() { closeFd(stdin_); }

int ChildProcess::wait(std::chrono::milliseconds grace) {
  if (reaped_) return status_;
  auto deadline = std::chrono::steady_clock::now() + grace;
  int signalToSend = SIGTERM;
  for (;;) {
    const pid_t done = ::waitpid(pid_, &status_, WNOHANG);
    if (done == pid_ || (done < 0 && errno != EINTR)) break;
    if (std::chrono::steady_clock::now() >= deadline) {
      ::kill(pid_, signalToSend);
      signalToSend = SIGKILL;
      deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1); // then SIGKILL
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  reaped_ = true;
  return status_;
}

std::size_t ChildProcess::residentKiB() const { return treeRssKiB(pid_, 0); }

} // namespace toold::bench
