// A program started with pipes on its stdin and stdout: how toold's clients start and talk to it.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace toold::client {

using Clock = std::chrono::steady_clock;

/// How a child ended.
struct ExitStatus {
  bool signaled = false; ///< killed by a signal rather than exited
  /// The exit code, or the signal number when signaled; -1 when the status was lost (another
  /// wait took it, or SIGCHLD is ignored).
  int value = 0;
  /// "exit status N" or "killed by signal N (Name)", for messages.
  std::string describe() const;
  /// What a shell reports as `$?`: the exit code, or 128 + the signal number.
  int shellStatus() const;
};

/// One child process. Every descriptor the parent holds is O_CLOEXEC and non-blocking, every wait
/// takes a deadline, and a child still running when the object goes is killed and reaped.
/// readSome may run in one thread while another writes or closes stdin; nothing else is shared.
class ChildProcess {
public:
  /// Every member has an initializer, so that callers name only the ones they set
  /// (`{.argv = ..., .newProcessGroup = true}`) without -Wmissing-field-initializers.
  struct Options {
    std::vector<std::string> argv{}; ///< argv[0] is searched in PATH when it has no '/'
    std::string stdinFile{};         ///< empty: stdin is a pipe fed by writeSome/writeAll
    /// Empty: stderr is inherited. Otherwise the file is created or truncated; "/dev/null"
    /// discards it (a chatty child then does not slow itself down writing to a terminal).
    std::string stderrFile{};
    /// A process group of its own, so that Ctrl-C at the terminal reaches only the parent.
    bool newProcessGroup = false;
  };

  /// Starts the child through core::SpawnPlan: every standard signal at its default and none
  /// blocked, whatever the parent did with them (clients ignore SIGPIPE and catch SIGINT), and
  /// no descriptor of the parent's but its three streams. Throws std::system_error carrying the errno when it cannot be started,
  /// including a failed exec: that never looks like a child that exited early.
  explicit ChildProcess(const Options& options);
  /// Kills the child if it was not reaped yet, and reaps it.
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const { return pid_; }
  /// The write end of the child's stdin, to poll alongside other descriptors; -1 once closed or
  /// when stdin is a file.
  int stdinFd() const { return stdin_; }
  /// The read end of the child's stdout; -1 once readSome has seen its end.
  int stdoutFd() const { return stdout_; }

  /// Writes what fits in the pipe now, without waiting: the number of bytes written (0 when the
  /// pipe is full), or nothing when the child no longer reads its stdin or it was closed. Never
  /// raises SIGPIPE. Throws std::system_error on any other error.
  std::optional<std::size_t> writeSome(std::string_view bytes);

  enum class WriteResult { Done, Timeout, Closed };
  /// Writes every byte, waiting for room in the pipe until `deadline`. Closed: the child no
  /// longer reads its stdin (or it was closed); part of the bytes may have been written.
  WriteResult writeAll(std::string_view bytes, Clock::time_point deadline = Clock::time_point::max());

  /// Reads what the child wrote to stdout, waiting for some until `deadline`: the number of bytes
  /// read, 0 at the end of its output (the pipe is then closed), or nothing when none arrived
  /// in time. Throws std::system_error on a read error.
  std::optional<std::size_t> readSome(std::span<char> buffer, Clock::time_point deadline = Clock::time_point::max());

  /// Ends the child's input: it sees end of file once it has read what was written.
  void closeStdin();

  /// Waits until `deadline` for the child to exit and reaps it; nothing if it still runs then.
  /// Once reaped, returns the same status at once.
  std::optional<ExitStatus> waitExit(Clock::time_point deadline);
  /// SIGKILL, then reaps it. Returns how it ended: it may have exited on its own just before.
  ExitStatus kill();
  /// SIGTERM, then SIGKILL if it has not exited after `grace`.
  ExitStatus terminate(std::chrono::milliseconds grace);

private:
  /// Sends `signal` unless the child was reaped: its pid may belong to another process by then.
  void sendSignal(int signal) const;
  /// Collects the exit status with waitpid(`flags`); false while the child still runs.
  bool reap(int flags);

  pid_t pid_ = -1;
  int stdin_ = -1;
  int stdout_ = -1;
  /// Whether SIGPIPE was ignored when the child started; if not, each write blocks it meanwhile.
  bool sigpipeIgnored_ = false;
  std::optional<ExitStatus> exit_;
};

} // namespace toold::client
