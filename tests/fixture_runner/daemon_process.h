// toold as the runner's child: a ChildProcess whose stdin writes drain its stdout meanwhile.
#pragma once

#include "core/process/child_process.h"

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace toold::fixture {

using Clock = std::chrono::steady_clock;
using client::ExitStatus;

class DaemonProcess {
public:
  /// Starts the process; throws std::system_error when it cannot be started (see ChildProcess).
  explicit DaemonProcess(const client::ChildProcess::Options& options) : child_(options) {}

  /// Writes all of `bytes` to stdin by `deadline`, reading stdout meanwhile so that neither side
  /// can block the other on a full pipe. Returns an empty string, or what went wrong.
  std::string writeStdin(std::string_view bytes, Clock::time_point deadline);
  void closeStdin() { child_.closeStdin(); }
  bool stdinOpen() const { return child_.stdinFd() >= 0; }

  enum class ReadStatus { Data, Timeout, Eof };
  /// Appends the next bytes toold wrote to stdout, waiting for some until `deadline`.
  ReadStatus readStdout(std::string& out, Clock::time_point deadline);

  /// Waits for the process to exit; nothing if it still runs at `deadline`.
  std::optional<ExitStatus> waitExit(Clock::time_point deadline) { return child_.waitExit(deadline); }
  /// SIGKILL, then reaps it. Returns how it ended (it may have exited on its own just before).
  ExitStatus kill() { return child_.kill(); }

  pid_t pid() const { return child_.pid(); }

private:
  client::ChildProcess child_;
  std::string pending_; ///< stdout read while a write was blocked
};

} // namespace toold::fixture
