// A self-pipe wakes the main loop; stdout is written with write(2) under one lock, so messages
// from the threads never interleave mid-line.
#include "daemon/repl/repl_console.h"

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

namespace toold::repl {
namespace {

void writeAll(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return; // a closed terminal: nothing better to do with the text
    }
    done += static_cast<std::size_t>(n);
  }
}

// Erases the line the cursor is on; "up" goes to the line above first.
constexpr const char* kClearLine = "\r\033[K";
constexpr const char* kClearLineAbove = "\033[A\r\033[K";

} // namespace

Console::Console() {
  if (::pipe2(wakeFds_, O_CLOEXEC | O_NONBLOCK) != 0) wakeFds_[0] = wakeFds_[1] = -1;
}

Console::~Console() {
  for (int fd : wakeFds_)
    if (fd >= 0) ::close(fd);
}

void Console::queue(std::string text) {
  queue_.push_back(std::move(text));
  const char byte = 1;
  [[maybe_unused]] auto n = ::write(wakeFds_[1], &byte, 1); // a full pipe already wakes the loop
}

void Console::print(std::string text) {
  std::lock_guard lock(mutex_);
  if (!deferred_) {
    writeAll(STDOUT_FILENO, text);
    return;
  }
  queue(std::move(text));
}

void Console::log(std::string text) {
  std::lock_guard lock(mutex_);
  if (!deferred_) {
    writeAll(STDERR_FILENO, text);
    return;
  }
  queue(std::move(text));
}

void Console::status(std::string text) {
  std::lock_guard lock(mutex_);
  if (!deferred_ || text == status_) return;
  status_ = std::move(text);
  statusChanged_ = true;
  const char byte = 1;
  [[maybe_unused]] auto n = ::write(wakeFds_[1], &byte, 1);
}

void Console::error(const std::string& text) {
  std::lock_guard lock(mutex_);
  writeAll(STDERR_FILENO, text);
}

void Console::wake() {
  const char byte = 0;
  [[maybe_unused]] auto n = ::write(wakeFds_[1], &byte, 1);
}

std::string Console::takeScreenUpdate() {
  char drain[256];
  while (::read(wakeFds_[0], drain, sizeof drain) > 0) {
  }
  std::lock_guard lock(mutex_);
  if (queue_.empty() && !statusChanged_) return {};
  std::string screen = kClearLine;
  if (statusOnScreen_) screen += kClearLineAbove;
  for (const auto& text : queue_) screen += text;
  queue_.clear();
  statusChanged_ = false;
  statusOnScreen_ = !status_.empty();
  if (statusOnScreen_) screen += status_ + "\n";
  return screen;
}

void Console::setDeferred(bool deferred) {
  std::lock_guard lock(mutex_);
  deferred_ = deferred;
  if (deferred) return;
  for (const auto& text : queue_) writeAll(STDOUT_FILENO, text);
  queue_.clear();
  status_.clear();
  statusOnScreen_ = false;
}

} // namespace toold::repl
