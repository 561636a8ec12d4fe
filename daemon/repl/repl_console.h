// The REPL's output. The reader threads print toold's messages and log as they arrive; while the
// line editor owns the terminal, they are queued instead and the main thread prints them above
// the prompt, because libedit may only be driven from one thread. A status line (a running
// call's progress) sits between that output and the prompt until the answer replaces it.
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
  /// toold's log: above the prompt while deferred, else on stderr. Any thread.
  void log(std::string text);
  /// Sets the status line (one line, no newline; empty removes it). Shown only while deferred,
  /// i.e. on a terminal. Any thread.
  void status(std::string text);
  /// Prints a local message on stderr at once. For the main thread, between edited lines.
  void error(const std::string& text);
  /// Makes the main loop's poll return, e.g. when toold went away. Any thread.
  void wake();

  /// Readable when there is queued output or a wake(); the main loop polls it.
  int wakeFd() const { return wakeFds_[0]; }
  /// The write end, for a signal handler: one byte written there wakes the main loop.
  int signalWakeFd() const { return wakeFds_[1]; }
  /// Empties the wake pipe and returns the bytes that bring the screen up to date: the prompt
  /// line and an old status line cleared, the queued output, the status line. Empty when
  /// nothing changed. The caller then has the prompt redrawn.
  std::string takeScreenUpdate();
  /// While deferred, print() queues. Turning it off prints what is still queued.
  void setDeferred(bool deferred);

private:
  void queue(std::string text);

  std::mutex mutex_;
  bool deferred_ = false;
  std::vector<std::string> queue_;
  std::string status_;
  bool statusChanged_ = false;
  bool statusOnScreen_ = false;
  int wakeFds_[2] = {-1, -1};
};

} // namespace toold::repl
