#include "core/files/read_to_end.h"

#include <cerrno>
#include <unistd.h>

namespace toold::core {

std::optional<std::string> readToEnd(int fd, std::size_t expected) {
  std::string bytes;
  bytes.reserve(expected);
  char buffer[64 * 1024];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return std::nullopt;
    if (n == 0) return bytes;
    bytes.append(buffer, static_cast<std::size_t>(n));
  }
}

} // namespace toold::core
