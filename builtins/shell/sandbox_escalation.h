// When the OS sandbox stops a command: telling the model plainly, and asking the person whether
// that one command may run again outside it (Codex's on-failure approval). Never a silent retry:
// the re-run happens only after the `sandbox` permission was granted — by the person, a saved
// "always", or a rule that names `sandbox` itself (docs/security.md).
//
// The kernel does not tell a process why an open failed beyond its errno, so "stopped by the
// sandbox" is read from the output: a failed command whose output says "Permission denied",
// "Read-only file system", "Operation not permitted", or that a name could not be resolved.
// A command that fails so for its own reasons costs one needless question, never a wrong answer.
#pragma once

#include "builtins/shell/shell_run.h"
#include "core/permission/permission_ask.h"
#include "core/permission/permission_defaults.h"
#include "core/sandbox/command_sandbox.h"

#include <string>
#include <string_view>

namespace toold::builtins {

/// A command that ended with a non-zero exit and output like a sandbox refusal's.
bool looksStoppedBySandbox(const ShellRunResult& result);

/// The ask for running `command` once more outside the sandbox.
core::PermissionAsk sandboxEscalationAsk(const std::string& command, const core::CommandSandbox& sandbox);

/// The note after a command the sandbox may have stopped, when running it outside was refused
/// (`refusal`: the permission's own words).
std::string sandboxRefusalNote(const core::CommandSandbox& sandbox, std::string_view refusal);

/// The first line of the answer of a command run again outside the sandbox.
inline constexpr std::string_view kEscalatedNote =
    "(The sandbox stopped this command's first run; with the `sandbox` permission granted, it was run again "
    "outside the sandbox. This is that run's output.)";

} // namespace toold::builtins
