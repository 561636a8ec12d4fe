// A server under test: started with pipes on its stdin and stdout, so the client can talk to it
// and measure it without a shell or an event library in between.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <vector>

namespace toold::bench {

class ChildProcess {
public:
  /// Starts argv[0] (searched in PATH). stderr goes to /dev/null unless `keepStderr`, so a chatty
  /// server does not slow itself down writing to a terminal. Throws std::runtime_error on failure.
  ChildProcess(const std::vector<std::string>& argv, bool keepStderr);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const { return pid_; }

  /// Writes every byte to the child's stdin; throws when the child stopped reading.
  void writeAll(std::string_view bytes);
  /// Reads what the child wrote, waiting at most `timeout`. Returns 0 at end of output; throws on
  /// timeout or error.
  std::size_t readSome(char* buffer, std::size_t size, std::chrono::milliseconds timeout);
  void closeStdin();
  /// Waits up to `grace` for the child to exit, then terminates it. Returns the wait status.
  int wait(std::chrono::milliseconds grace);
  /// Resident memory of the child and all its descendants (a wrapper script must not hide the
  /// real server), from VmRSS in /proc, in KiB.
  std::size_t residentKiB() const;

private:
  pid_t pid_ = -1;
  int stdin_ = -1;
  int stdout_ = -1;
  bool reaped_ = false;
  int status_ = 0;
};

} // namespace toold::bench
