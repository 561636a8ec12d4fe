#include "core/checkpoint/unnamed_write.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace toold::core {

UnnamedWrite writeUnnamedThenLink(int folderFd, const std::string& name, std::string_view bytes, mode_t mode) {
  const int fd = ::openat(folderFd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
  if (fd < 0) {
    // Kernels and file systems without it answer one of these; anything else is a real failure.
    if (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL) return {UnnamedWriteResult::Unsupported, {}};
    return {UnnamedWriteResult::Failed, std::string("cannot create a file: ") + std::strerror(errno)};
  }
  std::size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int saved = n < 0 ? errno : EIO;
      ::close(fd);
      return {UnnamedWriteResult::Failed, "cannot write " + name + ": " + std::strerror(saved)};
    }
    written += static_cast<std::size_t>(n);
  }
  // linkat with AT_EMPTY_PATH needs a capability; the descriptor's /proc name does not.
  const std::string self = "/proc/self/fd/" + std::to_string(fd);
  const bool linked = ::linkat(AT_FDCWD, self.c_str(), folderFd, name.c_str(), AT_SYMLINK_FOLLOW) == 0;
  const int saved = errno;
  ::close(fd);
  if (linked) return {UnnamedWriteResult::Written, {}};
  if (saved == EEXIST) return {UnnamedWriteResult::NameTaken, {}};
  // No /proc (a minimal container): the caller stages under a temporary name instead.
  if (saved == ENOENT) return {UnnamedWriteResult::Unsupported, {}};
  return {UnnamedWriteResult::Failed, "cannot link " + name + ": " + std::strerror(saved)};
}

} // namespace toold::core
