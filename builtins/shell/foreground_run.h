// A foreground command that answers within the time its caller can wait. A host gives up on a
// call after a fixed time (an MCP client's request timeout, often 60 s) and then the model learns
// nothing, although the command may be about to finish. So a command still running when the
// foreground limit passes is not stopped: it goes on as a background job of the session
// (ShellJobs::adopt), with its output from the first byte and its own timeout, and the call
// answers with what it printed so far and the job's id. Without a limit it is a ShellRun as ever.
#pragma once

#include "builtins/shell/shell_jobs.h"
#include "builtins/shell/shell_run.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace toold::builtins {

struct ForegroundRequest {
  std::string sessionID;
  std::string command;
  std::string description;
  ShellRunOptions run;
  /// How long the call may hold the command; nullopt: until it ends.
  std::optional<std::chrono::milliseconds> limit;
  /// Asked when the command moves to the background: what to run when that job ends (the call's
  /// checkpoint holds open for it); empty: nothing.
  std::function<std::function<void()>()> holdCheckpoint = {};
};

/// The answer for a command that went on in the background.
struct MovedToBackground {
  JobView job;
  ShellRun::SoFar soFar;
  std::chrono::milliseconds elapsed{0};
};

/// Whether a command whose own timeout is `timeoutMs` (0: none) is moved at `limit`: only when it
/// would still run by then. One that its timeout stops first keeps the foreground's answer.
bool movesToBackground(std::int64_t timeoutMs, std::optional<std::chrono::milliseconds> limit);

/// Runs the command; exactly one of `finished` (it ended within the limit, or could not start)
/// and `moved` (it goes on as a job) is called, once, on a loop thread. `cancellation` (the
/// call's) stops the command only while it is in the foreground: the job is stopped by bash_kill
/// or the session's end. A session with no room for another job keeps the command in the
/// foreground.
void runForeground(boost::asio::io_context& io, core::ProcessRunner& runner, std::shared_ptr<ShellJobs> jobs,
                   ForegroundRequest request, core::CancellationToken cancellation,
                   std::function<void(ShellRunResult)> finished, std::function<void(MovedToBackground)> moved);

} // namespace toold::builtins
