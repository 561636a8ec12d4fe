#include "builtins/shell/sandbox_escalation.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace toold::builtins {

namespace {

// What programs print when the kernel refused them an open, a write or a socket. Lower case.
constexpr std::array<std::string_view, 9> kRefusalWords = {
    "permission denied",      "operation not permitted",  "read-only file system",
    "temporary failure in name resolution", "could not resolve host", "couldn't resolve host",
    "name or service not known", "network is unreachable", "failed to establish a new connection"};

std::string lowerCase(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  return lower;
}

} // namespace

bool looksStoppedBySandbox(const ShellRunResult& result) {
  const auto& outcome = result.outcome;
  if (outcome.timedOut || outcome.cancelled || !outcome.spawnError.empty() || !outcome.status) return false;
  if (!outcome.status->code || *outcome.status->code == 0) return false;
  const std::string text = lowerCase(result.text.text);
  return std::any_of(kRefusalWords.begin(), kRefusalWords.end(),
                     [&text](std::string_view word) { return text.find(word) != std::string::npos; });
}

core::PermissionAsk sandboxEscalationAsk(const std::string& command, const core::CommandSandbox& sandbox) {
  core::PermissionAsk ask;
  ask.action = core::kSandboxAction;
  ask.resources = {command};
  // "Always" saves this exact line: leaving the sandbox is granted per command, never by prefix.
  ask.save = {command};
  ask.literalOnly = true;
  ask.grantedOnlyByName = true;
  ask.metadata = {{"command", command},
                  {"reason", "The command failed in the sandbox (" + std::string(core::sandboxModeName(sandbox.mode())) +
                                 ") with a refusal; allowing runs it once more outside the sandbox, with toold's own rights."}};
  return ask;
}

std::string sandboxRefusalNote(const core::CommandSandbox& sandbox, std::string_view refusal) {
  // The refusal quotes the command (twice, in the rule it suggests); the model has it already, and
  // a long command must not crowd its own output out of the answer's budget.
  constexpr std::size_t kMostOfRefusal = 600;
  std::string why(refusal.substr(0, kMostOfRefusal));
  if (refusal.size() > kMostOfRefusal) {
    while (!why.empty() && (static_cast<unsigned char>(why.back()) & 0xC0) == 0x80) why.pop_back(); // whole characters
    if (!why.empty() && static_cast<unsigned char>(why.back()) >= 0xC0) why.pop_back();
    why += "…";
  }
  return "The OS sandbox (" + std::string(core::sandboxModeName(sandbox.mode())) +
         ") may have stopped this command: " + sandbox.allowance() +
         ". Running it again outside the sandbox needs the `sandbox` permission, and it was not granted: " +
         why +
         "\nDo not try to get around the sandbox with another spelling of the same command: it is enforced by the "
         "kernel. Work within it (write inside the workspace, use the file tools), or tell the user what needs to "
         "run outside it.";
}

} // namespace toold::builtins
