#include "core/atomic_file.h"

#include "core/output_store.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace toold::core {

namespace {

std::string systemError(const std::string& what, const std::filesystem::path& path) {
  return what + " " + path.string() + ": " + std::strerror(errno);
}

// Flushing the directory makes the rename itself durable, not only the file's bytes.
void syncDirectory(const std::filesystem::path& directory) {
  int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

} // namespace

std::string writeFileAtomically(const std::filesystem::path& target, std::string_view content, mode_t mode) {
  const auto directory = target.parent_path().empty() ? std::filesystem::path(".") : target.parent_path();
  const auto temporary = directory / ("." + target.filename().string() + ".toold-" + newOutputId());
  int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
  if (fd < 0) return systemError("cannot create", temporary);
  auto fail = [&](const std::string& what) {
    std::string error = systemError(what, temporary);
    ::close(fd);
    ::unlink(temporary.c_str());
    return error;
  };
  for (std::size_t written = 0; written < content.size();) {
    ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return fail("cannot write");
    written += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) return fail("cannot flush");
  if (::close(fd) != 0) {
    std::string error = systemError("cannot close", temporary);
    ::unlink(temporary.c_str());
    return error;
  }
  if (::rename(temporary.c_str(), target.c_str()) != 0) {
    std::string error = systemError("cannot rename onto " + target.string() + " from", temporary);
    ::unlink(temporary.c_str());
    return error;
  }
  syncDirectory(directory);
  return {};
}

} // namespace toold::core
