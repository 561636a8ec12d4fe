#include "core/checkpoint/relative_folder.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace toold::core {

bool isWellFormedRelativePath(std::string_view path) {
  if (path.empty() || path.front() == '/') return false;
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t end = std::min(path.find('/', start), path.size());
    const std::string_view part = path.substr(start, end - start);
    if (part.empty() || part == "." || part == "..") return false;
    start = end + 1;
  }
  return true;
}

OpenedFolder openFolderOf(int root, std::string_view path, std::vector<std::string>* created) {
  OpenedFolder opened;
  if (!isWellFormedRelativePath(path)) {
    opened.error = "not a workspace-relative path: " + std::string(path);
    opened.errorNumber = EINVAL;
    return opened;
  }
  int fd = ::dup(root);
  std::size_t start = 0;
  for (std::size_t slash = path.find('/'); slash != std::string_view::npos; slash = path.find('/', start)) {
    const std::string part(path.substr(start, slash - start));
    int next = ::openat(fd, part.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (next < 0 && errno == ENOENT && created) {
      if (::mkdirat(fd, part.c_str(), 0755) == 0) created->emplace_back(path.substr(0, slash));
      next = ::openat(fd, part.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    }
    if (next < 0) {
      opened.errorNumber = errno;
      opened.error = "cannot open the folder " + std::string(path.substr(0, slash)) + ": " + std::strerror(errno);
      ::close(fd);
      return opened;
    }
    ::close(fd);
    fd = next;
    start = slash + 1;
  }
  opened.fd = fd;
  opened.leaf = std::string(path.substr(start));
  return opened;
}

} // namespace toold::core
