// One poll() on both pipes while a write waits: the runner is single-threaded.
#include "daemon_process.h"

#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace toold::fixture {
namespace {

constexpr std::size_t kReadChunk = 64 * 1024;

int millisecondsUntil(Clock::time_point deadline) {
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return static_cast<int>(std::clamp<decltype(left)>(left, 0, 60'000));
}

} // namespace

std::string DaemonProcess::writeStdin(std::string_view bytes, Clock::time_point deadline) {
  if (!stdinOpen()) return "toold's stdin is already closed";
  while (!bytes.empty()) {
    const auto written = child_.writeSome(bytes);
    if (!written) return "toold no longer reads its stdin (it has probably exited)";
    bytes.remove_prefix(*written);
    if (*written > 0) continue;
    if (Clock::now() >= deadline) return "writing to toold's stdin timed out: it stopped reading";
    // stdoutFd() is -1 once toold closed its stdout, and poll skips it then.
    pollfd fds[2] = {{child_.stdinFd(), POLLOUT, 0}, {child_.stdoutFd(), POLLIN, 0}};
    if (::poll(fds, 2, millisecondsUntil(deadline)) < 0 && errno != EINTR)
      return std::string("poll: ") + std::strerror(errno);
    if (fds[1].revents != 0) {
      // Drain stdout so a daemon blocked writing its replies can go back to reading.
      char chunk[kReadChunk];
      if (const auto n = child_.readSome(chunk, Clock::now())) pending_.append(chunk, *n);
    }
  }
  return {};
}

DaemonProcess::ReadStatus DaemonProcess::readStdout(std::string& out, Clock::time_point deadline) {
  if (!pending_.empty()) {
    out += pending_;
    pending_.clear();
    return ReadStatus::Data;
  }
  char chunk[kReadChunk];
  const auto n = child_.readSome(chunk, deadline);
  if (!n) return ReadStatus::Timeout;
  if (*n == 0) return ReadStatus::Eof;
  out.append(chunk, *n);
  return ReadStatus::Data;
}

} // namespace toold::fixture
