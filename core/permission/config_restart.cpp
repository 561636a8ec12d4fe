#include "core/permission/config_restart.h"

namespace toold::core {

std::vector<std::string> keysNeedingRestart(const PermissionConfig& running, const PermissionConfig& next) {
  std::vector<std::string> keys;
  auto note = [&keys](bool changed, const char* key) {
    if (changed) keys.emplace_back(key);
  };
  note(running.asks != next.asks, "asks.route");
  note(running.unattendedAllow != next.unattendedAllow, "asks.unattended");
  note(running.outputMaxBytes != next.outputMaxBytes, "output.maxBytes");
  note(running.outputMaxLines != next.outputMaxLines, "output.maxLines");
  note(running.outputBudgetBytes != next.outputBudgetBytes, "output.budgetBytes");
  note(running.outputFileBytes != next.outputFileBytes, "output.fileBytes");
  note(running.checkpointsEnabled != next.checkpointsEnabled, "checkpoints.enabled");
  note(running.checkpointBudgetBytes != next.checkpointBudgetBytes, "checkpoints.budgetBytes");
  note(running.mcpForegroundLimit != next.mcpForegroundLimit, "mcp.foregroundLimit");
  // The launcher's lists and what the kernel was probed for are fixed at start-up: a sandbox
  // changed in place would leave running jobs and servers in the old one.
  note(running.sandbox != next.sandbox, "sandbox");
  note(running.codemode.timeoutMs != next.codemode.timeoutMs, "codemode.timeout");
  note(running.codemode.maxToolCalls != next.codemode.maxToolCalls, "codemode.maxToolCalls");
  note(running.codemode.memoryMb != next.codemode.memoryMb, "codemode.memory");
  return keys;
}

std::string restartRefusal(const std::vector<std::string>& keys) {
  std::string list;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (i > 0) list += i + 1 == keys.size() ? " and " : ", ";
    list += keys[i];
  }
  const bool one = keys.size() == 1;
  return "config/reload: " + list + (one ? " changed; it takes" : " changed; they take") +
         " effect only when toold starts again, so nothing was applied (restart toold, or put " +
         (one ? "it" : "them") + " back as " + (one ? "it was" : "they were") + " to reload the rest)";
}

} // namespace toold::core
