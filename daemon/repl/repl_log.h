// toold's log on a terminal: toold writes its stderr into a FIFO the REPL reads, and each line is
// printed above the prompt, never into the line being typed.
#pragma once

#include "daemon/repl/repl_console.h"

#include <atomic>
#include <string>
#include <thread>

namespace toold::repl {

class LogRelay {
public:
  /// Creates the FIFO (in a private temporary folder) and opens its reading end. path() is
  /// empty when that failed; toold's stderr is then inherited.
  explicit LogRelay(Console& console);
  ~LogRelay();
  LogRelay(const LogRelay&) = delete;
  LogRelay& operator=(const LogRelay&) = delete;

  /// Where toold's stderr should go.
  const std::string& path() const { return path_; }
  /// Starts relaying toold's lines to the console until destroyed.
  void start();

private:
  void relay();

  Console& console_;
  std::string folder_;
  std::string path_;
  int fd_ = -1;
  int keepOpen_ = -1;
  std::atomic<bool> stop_ = false;
  std::thread thread_;
};

} // namespace toold::repl
