// SpawnPlan: the file actions, the attributes and the environment of one posix_spawnp.
#include "core/process/spawn_plan.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <string_view>
#include <system_error>

extern char** environ;

namespace toold::core {

namespace {

std::system_error systemError(int error, const char* what) {
  return std::system_error(error, std::generic_category(), what);
}

void check(int error, const char* what) {
  if (error != 0) throw systemError(error, what);
}

std::string_view variableName(std::string_view entry) { return entry.substr(0, entry.find('=')); }

/// The parent's environment with `extra` laid over it: "K=V" sets K, a bare "K" removes it.
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

PipeEnds makePipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw systemError(errno, "pipe");
  return {UniqueFd(fds[0]), UniqueFd(fds[1])};
}

void keepAboveStdio(UniqueFd& fd) {
  if (!fd || fd.get() > STDERR_FILENO) return;
  const int moved = ::fcntl(fd.get(), F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
  if (moved < 0) throw systemError(errno, "fcntl");
  fd.reset(moved);
}

void setNonBlocking(const UniqueFd& fd) {
  const int flags = ::fcntl(fd.get(), F_GETFL);
  if (flags < 0 || ::fcntl(fd.get(), F_SETFL, flags | O_NONBLOCK) < 0) throw systemError(errno, "fcntl");
}

SpawnPlan::SpawnPlan(std::vector<std::string> argv, const std::vector<std::string>& extraEnv, Isolation isolation)
    : argv_(std::move(argv)), environment_(childEnvironment(extraEnv)), argvPointers_(pointers(argv_)),
      environmentPointers_(pointers(environment_)) {
  check(::posix_spawn_file_actions_init(&actions_), "posix_spawn_file_actions_init");
  if (const int error = ::posix_spawnattr_init(&attributes_); error != 0) {
    ::posix_spawn_file_actions_destroy(&actions_);
    throw systemError(error, "posix_spawnattr_init");
  }
  try {
    // Ignored signals survive exec: were SIGPIPE ignored in the parent (clients ignore it, so a
    // dead child shows as a failed write), a child would not die writing into a closed pipe
    // (`yes | head` would spin), and an ignored SIGCHLD would lose a shell its jobs' statuses.
    // Blocked signals survive too, and a child starts with the mask of whichever thread spawned
    // it. So every standard signal starts at its default, unblocked.
    sigset_t defaults;
    sigemptyset(&defaults);
    for (int signal = 1; signal < 32; ++signal) // the standard signals; real-time ones are left alone
      if (signal != SIGKILL && signal != SIGSTOP) sigaddset(&defaults, signal);
    sigset_t mask;
    sigemptyset(&mask);
    check(::posix_spawnattr_setsigdefault(&attributes_, &defaults), "posix_spawnattr_setsigdefault");
    check(::posix_spawnattr_setsigmask(&attributes_, &mask), "posix_spawnattr_setsigmask");
    int flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK;
    if (isolation == Isolation::Session) flags |= POSIX_SPAWN_SETSID;
    if (isolation == Isolation::ProcessGroup) {
      flags |= POSIX_SPAWN_SETPGROUP;
      check(::posix_spawnattr_setpgroup(&attributes_, 0), "posix_spawnattr_setpgroup");
    }
    check(::posix_spawnattr_setflags(&attributes_, static_cast<short>(flags)), "posix_spawnattr_setflags");
  } catch (...) {
    ::posix_spawnattr_destroy(&attributes_);
    ::posix_spawn_file_actions_destroy(&actions_);
    throw;
  }
}

SpawnPlan::~SpawnPlan() {
  ::posix_spawnattr_destroy(&attributes_);
  ::posix_spawn_file_actions_destroy(&actions_);
}

void SpawnPlan::changeDirectory(const UniqueFd& directory) {
  check(::posix_spawn_file_actions_addfchdir_np(&actions_, directory.get()), "posix_spawn_file_actions_addfchdir_np");
}

void SpawnPlan::setStream(const UniqueFd& from, int target) {
  check(::posix_spawn_file_actions_adddup2(&actions_, from.get(), target), "posix_spawn_file_actions_adddup2");
}

// posix_spawn rather than fork: glibc runs the child with CLONE_VFORK on a small stack of its own,
// so a spawn costs the same whatever the parent's size, nothing in the child can touch the
// parent's heap or locks, and it returns the errno of a failed exec.
int SpawnPlan::spawn(pid_t& pid) {
  if (argv_.empty() || argv_.front().empty()) return EINVAL;
  if (!closesOthers_) {
    // Whatever descriptor the parent leaked without O_CLOEXEC (a library, another thread between
    // pipe() and fcntl()) would otherwise keep a pipe open in every child and its descendants.
    // Last, since the actions run in order and the streams' sources are above 2.
    if (const int error = ::posix_spawn_file_actions_addclosefrom_np(&actions_, STDERR_FILENO + 1); error != 0)
      return error;
    closesOthers_ = true;
  }
  return ::posix_spawnp(&pid, argvPointers_[0], &actions_, &attributes_, argvPointers_.data(),
                        environmentPointers_.data());
}

} // namespace toold::core
