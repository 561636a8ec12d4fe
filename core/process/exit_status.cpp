// Decoding and wording of exit statuses.
#include "core/process/exit_status.h"

#include <string.h>
#include <sys/wait.h>

namespace toold::core {

ExitStatus ExitStatus::fromWaitStatus(int waitStatus) {
  if (WIFSIGNALED(waitStatus)) return killedBy(WTERMSIG(waitStatus));
  return exited(WEXITSTATUS(waitStatus));
}

std::string signalName(int signal) {
  // sigabbrev_np rather than strsignal: "SIGKILL" is what people search for, and it is
  // thread-safe and untranslated.
  const char* name = ::sigabbrev_np(signal);
  return name != nullptr ? std::string("SIG") + name : "signal " + std::to_string(signal);
}

std::string ExitStatus::describe() const {
  if (signal) {
    std::string text = "killed by signal " + std::to_string(*signal);
    if (::sigabbrev_np(*signal) != nullptr) text += " (" + signalName(*signal) + ")";
    return text;
  }
  if (code) return "exit code " + std::to_string(*code);
  return "no exit status";
}

} // namespace toold::core
