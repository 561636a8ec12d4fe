// The reading end is opened non-blocking before toold starts, so toold's open for writing never
// waits. The REPL keeps a writing end of its own open, so the relay never sees an end of file
// before toold has even opened the FIFO; it stops when the REPL tears it down.
#include "daemon/repl/repl_log.h"

#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

namespace toold::repl {

LogRelay::LogRelay(Console& console) : console_(console) {
  const char* tmp = std::getenv("TMPDIR");
  std::string folder = std::string(tmp && *tmp ? tmp : "/tmp") + "/toold-repl-XXXXXX";
  if (::mkdtemp(folder.data()) == nullptr) return;
  folder_ = folder;
  const std::string fifo = folder_ + "/log";
  if (::mkfifo(fifo.c_str(), 0600) != 0) return;
  fd_ = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd_ >= 0) keepOpen_ = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  if (keepOpen_ >= 0) path_ = fifo;
}

LogRelay::~LogRelay() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
  if (keepOpen_ >= 0) ::close(keepOpen_);
  if (fd_ >= 0) ::close(fd_);
  if (!path_.empty()) ::unlink(path_.c_str());
  if (!folder_.empty()) ::rmdir(folder_.c_str());
}

void LogRelay::start() {
  if (fd_ < 0) return;
  thread_ = std::thread([this] { relay(); });
}

void LogRelay::relay() {
  std::string pending;
  char chunk[4096];
  constexpr int kStopCheckMs = 100;
  for (;;) {
    pollfd pfd{fd_, POLLIN, 0};
    const int ready = ::poll(&pfd, 1, kStopCheckMs);
    if (ready < 0 && errno != EINTR) break;
    if (ready <= 0) {
      if (stop_) break; // nothing left to read, and the REPL is leaving
      continue;
    }
    const ssize_t n = ::read(fd_, chunk, sizeof chunk);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) break;
    pending.append(chunk, static_cast<std::size_t>(n));
    const auto last = pending.rfind('\n');
    if (last == std::string::npos) continue;
    console_.log(pending.substr(0, last + 1));
    pending.erase(0, last + 1);
  }
  if (!pending.empty()) console_.log(pending + "\n");
}

} // namespace toold::repl
