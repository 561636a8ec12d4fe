// What the shell tools share: `bash` runs a command (in the foreground, or as a background job),
// and `bash_output`, `bash_kill` and `bash_jobs` follow, stop and list a session's background
// jobs. One instance serves them all: the daemon's process runner, the job table, the shell.
#pragma once

#include "builtins/shell/shell_environment.h"
#include "builtins/shell/shell_jobs.h"
#include "core/sandbox/command_sandbox.h"

#include <boost/asio/io_context.hpp>

#include <memory>

namespace toold::builtins {

struct ShellTools {
  boost::asio::io_context& io;
  core::ProcessRunner& runner;
  std::shared_ptr<ShellJobs> jobs;
  ShellProgram shell;
  /// The OS sandbox every command runs in (docs/security.md).
  std::shared_ptr<const core::CommandSandbox> sandbox;
};

/// "No background job "shell-9" in this session; its jobs are: shell-1, shell-2."
std::string noSuchJob(const ShellJobs& jobs, const std::string& sessionID, const std::string& id);

/// "shell-1 is running", "shell-1 has exited (exit code 0)", "shell-2 was killed (killed by signal 15 (SIGTERM))",
/// "shell-3 timed out (...)", "shell-4 failed: why".
std::string jobStatus(const JobView& job);

} // namespace toold::builtins
