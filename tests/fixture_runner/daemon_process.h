// toold as a child process: stdin from a pipe or a regular file, stdout through a pipe read with
// deadlines, stderr to a file. Every wait takes a deadline, so a wedged daemon cannot hang a run.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toold::fixture {

using Clock = std::chrono::steady_clock;

struct ExitStatus {
  bool signaled = false;
  int value = 0; ///< the exit code, or the signal number when signaled
  std::string describe() const;
};

struct ProcessConfig {
  std::string program;
  std::vector<std::string> args; ///< without argv[0]
  std::string stdinFile;         ///< empty: stdin is a pipe the runner writes to
  std::string stderrFile;
};

class DaemonProcess {
public:
  /// Starts the process. Throws std::runtime_error when it cannot be started (the exec's errno
  /// is reported, not left to look like an early exit).
  explicit DaemonProcess(const ProcessConfig& config);
  /// Kills the process if it still runs.
  ~DaemonProcess();
  DaemonProcess(const DaemonProcess&) = delete;
  DaemonProcess& operator=(const DaemonProcess&) = delete;

  /// Writes all of `bytes` to stdin by `deadline`, reading stdout meanwhile so that neither side
  /// can block the other on a full pipe. Returns an empty string, or what went wrong.
  std::string writeStdin(std::string_view bytes, Clock::time_point deadline);
  void closeStdin();
  bool stdinOpen() const { return stdinFd_ >= 0; }

  enum class ReadStatus { Data, Timeout, Eof };
  /// Appends the next bytes toold wrote to stdout, waiting for some until `deadline`.
  ReadStatus readStdout(std::string& out, Clock::time_point deadline);

  /// Waits for the process to exit; nothing if it still runs at `deadline`.
  std::optional<ExitStatus> waitExit(Clock::time_point deadline);
  /// SIGKILL, then reaps it. Returns how it ended (it may have exited on its own just before).
  ExitStatus kill();

  pid_t pid() const { return pid_; }

private:
  pid_t pid_ = -1;
  int stdinFd_ = -1;
  int stdoutFd_ = -1;
  std::string pending_; ///< stdout read while a write was blocked
  std::optional<ExitStatus> exit_;
};

} // namespace toold::fixture
