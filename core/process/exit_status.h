// How a child process ended: an exit code or the signal that killed it, decoded once from the
// raw wait status so that callers never see W* macros.
#pragma once

#include <optional>
#include <string>

namespace toold::core {

/// Exactly one of `code` and `signal` is set. `exit 9` and death by SIGKILL are therefore two
/// different values, where a shell's `$?` would show 9 and 137.
struct ExitStatus {
  std::optional<int> code;   ///< the program exited (returned from main, called exit)
  std::optional<int> signal; ///< a signal killed it

  /// From a status filled in by waitpid (exited or killed; toold never asks for stops).
  static ExitStatus fromWaitStatus(int waitStatus);
  static ExitStatus exited(int code) { return {code, std::nullopt}; }
  static ExitStatus killedBy(int signal) { return {std::nullopt, signal}; }

  bool succeeded() const { return code == 0; }
  /// "exit code 3", "killed by signal 9 (SIGKILL)".
  std::string describe() const;

  friend bool operator==(const ExitStatus&, const ExitStatus&) = default;
};

/// "SIGKILL" for 9; "signal 77" for a number without a name.
std::string signalName(int signal);

} // namespace toold::core
