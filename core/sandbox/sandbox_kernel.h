// What this machine lets toold's sandbox enforce, found once at start-up by asking the launcher to
// try each mechanism for real (a container may forbid what the kernel was built with). toold then
// claims, at start-up and in `initialize`, exactly what it enforces: never more.
#pragma once

#include <filesystem>
#include <string>

namespace toold::core {

struct SandboxKernel {
  std::filesystem::path launcher; ///< toold-sandbox; empty when it was not found
  int landlockAbi = 0;            ///< 0: no Landlock
  bool landlock = false;          ///< a ruleset could be applied
  bool mountNamespace = false;    ///< a mount namespace (with a user namespace unless root) could be entered
  bool seccomp = false;           ///< a filter could be installed
  std::string problem;            ///< why the launcher could not be asked; empty when it answered
};

/// The launcher beside toold's own executable (`<dir of /proc/self/exe>/toold-sandbox`), asked
/// with --probe. Never throws: a missing or silent launcher is a SandboxKernel with a problem.
SandboxKernel probeSandboxKernel(const std::filesystem::path& launcher);

/// `<folder of toold's executable>/toold-sandbox`.
std::filesystem::path defaultSandboxLauncher();

} // namespace toold::core
