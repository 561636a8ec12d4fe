// The OS sandbox of the commands toold starts (docs/security.md). The settings say what is wanted,
// the kernel what can be enforced; the effective policy is what both allow, and that, no more, is
// what toold reports. A command is sandboxed by starting it through toold-sandbox, which applies
// Landlock (files, TCP), seccomp (every other socket) and a mount namespace (`.git`, toold.json
// and `.toold/` read-only inside a writable workspace) to itself, then execs the command.
//
// The scanner of shell commands (builtins/shell) stays for the asks a person sees; the boundary
// is this: whatever a command spells, through variables, interpreters or scripts, the kernel
// checks every open.
#pragma once

#include "core/base/location.h"
#include "core/sandbox/sandbox_kernel.h"
#include "core/sandbox/sandbox_settings.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace toold::core {

struct ProcessSpec;

/// Who starts the process: the settings choose which are sandboxed.
enum class SandboxedProcess { ShellCommand, CommandTool, McpServer };

class CommandSandbox {
public:
  /// `configFile`: the configuration file toold read, kept read-only too when it lies in a
  /// writable folder; empty when none.
  CommandSandbox(SandboxSettings settings, SandboxKernel kernel, Location location,
                 std::filesystem::path configFile = {});

  /// A sandbox that does nothing (tests, and toold with the sandbox off).
  static CommandSandbox off();

  SandboxMode mode() const { return mode_; }
  const SandboxSettings& settings() const { return settings_; }
  /// Landlock confines reads and writes to the lists below.
  bool confinesFiles() const { return confinesFiles_; }
  /// Sockets other than AF_UNIX are refused.
  bool closesNetwork() const { return closesNetwork_; }
  /// `.git`, toold.json and `.toold/` stay read-only inside writable folders.
  bool protectsGit() const { return protectsGit_; }
  bool active() const { return confinesFiles_ || closesNetwork_; }
  bool applies(SandboxedProcess process) const;

  /// Starts `spec` through the launcher instead, when the sandbox applies to `process`. A program
  /// that cannot be found in PATH is left as it is, for the spawn to report as before.
  void wrap(ProcessSpec& spec, SandboxedProcess process) const;

  /// The capability report, for `initialize`: the mode asked for, what is enforced, what the
  /// kernel offers, and why anything is not. (The folders, which name the machine's paths, are in
  /// the log at debug level.)
  nlohmann::json report() const;
  /// One line for the log at start-up.
  std::string summary() const;
  /// What a sandboxed command may do, in a sentence for the model ("may write only in ...").
  std::string allowance() const;

  const std::vector<std::string>& readable() const { return read_; }
  const std::vector<std::string>& writable() const { return write_; }
  /// toold's own temp folder, given to commands as TMPDIR when the system's is not theirs.
  const std::filesystem::path& scratch() const { return scratch_; }

private:
  CommandSandbox() = default;
  void planPaths(const Location& location, const std::filesystem::path& configFile);

  SandboxSettings settings_;
  SandboxKernel kernel_;
  SandboxMode mode_ = SandboxMode::Off;
  bool confinesFiles_ = false;
  bool closesNetwork_ = false;
  bool protectsGit_ = false;
  std::vector<std::string> unenforced_; ///< what was asked for and cannot be enforced, with why
  std::vector<std::string> read_;
  std::vector<std::string> write_;
  std::vector<std::string> devices_;
  std::vector<std::string> protect_; ///< checked for existence at each wrap
  std::vector<std::string> rebind_;
  std::filesystem::path scratch_;
};

} // namespace toold::core
