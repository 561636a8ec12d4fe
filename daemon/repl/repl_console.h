// The REPL's output. The reader thread prints toold's messages as they arrive; while the line
// editor owns the terminal, they are queued instead and the main thread prints them above the
// prompt, because libedit may only be driven from one thread.
#pragma once

#include <mutex>
#include <string>
#include <vector>

namespace toold::repl {

class Console {
public:
  Console();
  ~Console();
  Console(const Console&) = delete;
  Console& operator=(const Console&) = delete;

  /// Prints `text` (which ends in a newline) on stdout, or queues it while deferred. Any thread.
  void print(std::string text);
  /// Prints a local message on stderr at once. For the main thread, between edited lines.
  void error(const std::string& text);
  /// Makes the main loop's poll return, e.g. when toold went away. Any thread.
  void wake();

  /// Readable when there is queued output or a wake(); the main loop polls it.
  int wakeFd() const { return wakeFds_[0]; }
  /// The write end, for a signal handler: one byte written there wakes the main loop.
  int signalWakeFd() const { return wakeFds_[1]; }
  /// Empties the wake pipe and hands over what was queued.
  std::vector<std::string> takeQueued();
  /// While deferred, print() queues. Turning it off prints what is still queued.
  void setDeferred(bool deferred);

private:
  std::mutex mutex_;
  bool deferred_ = false;
  std::vector<std::string> queue_;
  int wakeFds_[2] = {-1, -1};
};

} // namespace toold::repl
