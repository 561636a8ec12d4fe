// posix_spawn keeps the start cheap and lets the child's process group be set atomically.
#include "daemon/repl_child.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <stdexcept>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace toold::repl {
namespace {

void closeFd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

int shellStatus(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

} // namespace

ReplChild::ReplChild(const std::vector<std::string>& argv) {
  int in[2];
  int out[2];
  if (::pipe2(in, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  if (::pipe2(out, O_CLOEXEC) != 0) {
    const int error = errno;
    ::close(in[0]);
    ::close(in[1]);
    throw std::runtime_error(std::string("pipe: ") + std::strerror(error));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);
  posix_spawnattr_setpgroup(&attributes, 0);
  // The REPL ignores SIGPIPE; toold must start with the default dispositions.
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigaddset(&defaults, SIGINT);
  posix_spawnattr_setsigdefault(&attributes, &defaults);

  std::vector<char*> args;
  for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  const int error = ::posix_spawn(&pid_, args[0], &actions, &attributes, args.data(), environ);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  ::close(in[0]);
  ::close(out[1]);
  stdin_ = in[1];
  stdout_ = out[0];
  if (error != 0) {
    closeFd(stdin_);
    closeFd(stdout_);
    reaped_ = true;
    throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(error));
  }
}

ReplChild::~ReplChild() {
  closeInput();
  wait(std::chrono::milliseconds(0));
  closeFd(stdout_);
}

bool ReplChild::write(std::string_view bytes) {
  while (!bytes.empty()) {
    if (stdin_ < 0) return false;
    const ssize_t n = ::write(stdin_, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

void ReplChild::closeInput() { closeFd(stdin_); }

int ReplChild::wait(std::chrono::milliseconds grace) {
  if (reaped_) return exitStatus_;
  auto deadline = std::chrono::steady_clock::now() + grace;
  int signalToSend = SIGTERM;
  int status = 0;
  for (;;) {
    const pid_t done = ::waitpid(pid_, &status, WNOHANG);
    if (done == pid_) break;
    if (done < 0 && errno != EINTR) {
      status = 0;
      break;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      ::kill(pid_, signalToSend);
      signalToSend = SIGKILL;
      deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1); // then SIGKILL
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  reaped_ = true;
  exitStatus_ = shellStatus(status);
  return exitStatus_;
}

} // namespace toold::repl
