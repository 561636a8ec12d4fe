// The toold process the REPL talks to: started with pipes on its stdin and stdout; its stderr
// (the log) goes straight to the terminal.
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <vector>

namespace toold::repl {

class ReplChild {
public:
  /// Starts `argv` (argv[0] is a path). Throws std::runtime_error when it cannot be started.
  /// toold gets a process group of its own, so Ctrl-C at the prompt reaches the REPL only.
  explicit ReplChild(const std::vector<std::string>& argv);
  ~ReplChild();
  ReplChild(const ReplChild&) = delete;
  ReplChild& operator=(const ReplChild&) = delete;

  /// Writes one whole frame; false when toold no longer reads its input.
  bool write(std::string_view bytes);
  /// The read end of toold's stdout, for the reader thread.
  int outputFd() const { return stdout_; }
  /// Ends toold's input: it finishes what is in flight and exits.
  void closeInput();
  /// Waits up to `grace` for toold to exit, then terminates it. Returns the exit status a shell
  /// would report (128 + signal when killed).
  int wait(std::chrono::milliseconds grace);

private:
  pid_t pid_ = -1;
  int stdin_ = -1;
  int stdout_ = -1;
  bool reaped_ = false;
  int exitStatus_ = 0;
};

} // namespace toold::repl
