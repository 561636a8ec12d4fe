#include "daemon/sandbox/protected_mounts.h"

#include <cerrno>
#include <climits>
#include <cstring>

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

namespace toold::sandbox_launch {

namespace {

std::string failure(const std::string& what) { return what + ": " + std::strerror(errno); }

std::string writeFile(const char* path, const std::string& text) {
  const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return failure(path);
  const ssize_t written = ::write(fd, text.data(), text.size());
  const int error = errno;
  ::close(fd);
  errno = error;
  return written == static_cast<ssize_t>(text.size()) ? std::string() : failure(path);
}

bool exists(const std::string& path) {
  struct stat status {};
  return ::lstat(path.c_str(), &status) == 0;
}

/// The flags a read-only remount must keep: in a user namespace the kernel refuses to clear the
/// ones the original mount was locked with (nosuid, nodev, noexec, the atime flags).
unsigned long keptFlags(const std::string& path) {
  struct statvfs status {};
  if (::statvfs(path.c_str(), &status) != 0) return 0;
  unsigned long flags = 0;
  if (status.f_flag & ST_NOSUID) flags |= MS_NOSUID;
  if (status.f_flag & ST_NODEV) flags |= MS_NODEV;
  if (status.f_flag & ST_NOEXEC) flags |= MS_NOEXEC;
  if (status.f_flag & ST_NOATIME) flags |= MS_NOATIME;
  if (status.f_flag & ST_NODIRATIME) flags |= MS_NODIRATIME;
  if (status.f_flag & ST_RELATIME) flags |= MS_RELATIME;
  return flags;
}

std::string bindOntoItself(const std::string& path, bool readOnly) {
  if (::mount(path.c_str(), path.c_str(), nullptr, MS_BIND | MS_REC, nullptr) != 0) return failure("bind " + path);
  const unsigned long flags = MS_REMOUNT | MS_BIND | keptFlags(path) | (readOnly ? static_cast<unsigned long>(MS_RDONLY) : 0UL);
  if (::mount(nullptr, path.c_str(), nullptr, flags, nullptr) != 0)
    return failure("remount " + path);
  return {};
}

} // namespace

std::string enterMountNamespace() {
  const uid_t uid = ::geteuid();
  const gid_t gid = ::getegid();
  if (uid == 0) {
    if (::unshare(CLONE_NEWNS) != 0) return failure("unshare(CLONE_NEWNS)");
  } else {
    if (::unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) return failure("unshare(CLONE_NEWUSER|CLONE_NEWNS)");
    // The command keeps its own ids: files it creates are the person's, as outside.
    if (auto error = writeFile("/proc/self/setgroups", "deny"); !error.empty()) return error;
    if (auto error = writeFile("/proc/self/uid_map", std::to_string(uid) + " " + std::to_string(uid) + " 1");
        !error.empty())
      return error;
    if (auto error = writeFile("/proc/self/gid_map", std::to_string(gid) + " " + std::to_string(gid) + " 1");
        !error.empty())
      return error;
  }
  if (::mount(nullptr, "/", nullptr, MS_REC | MS_SLAVE, nullptr) != 0) return failure("making / a slave mount");
  return {};
}

std::string protectPaths(const std::vector<std::string>& paths, const std::vector<std::string>& rebinds) {
  for (const auto& path : paths)
    if (exists(path))
      if (auto error = bindOntoItself(path, true); !error.empty()) return error;
  for (const auto& path : rebinds)
    if (exists(path))
      if (auto error = bindOntoItself(path, false); !error.empty()) return error;
  // The working directory was entered before the mounts: through it, relative paths would still
  // reach the writable originals.
  char directory[PATH_MAX];
  if (::getcwd(directory, sizeof directory) != nullptr && ::chdir(directory) != 0)
    return failure(std::string("re-entering ") + directory);
  return {};
}

} // namespace toold::sandbox_launch
