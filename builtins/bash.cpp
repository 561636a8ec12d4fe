#include "builtins/bash.h"

#include "builtins/constant_json.h"
#include "builtins/shell/foreground_run.h"
#include "builtins/shell/sandbox_escalation.h"
#include "builtins/shell/shell_permissions.h"
#include "builtins/shell/shell_run.h"
#include "builtins/tool_support.h"
#include "core/checkpoint/call_recorder.h"
#include "core/output/output_budget.h"
#include "core/output/output_store.h"
#include "core/workspace/workspace_paths.h"

#include <algorithm>

namespace toold::builtins {

namespace {

using core::json;

constexpr std::int64_t kDefaultTimeoutMs = 120000;
constexpr std::int64_t kMaxTimeoutMs = 7LL * 24 * 3600 * 1000; // a week: longer is "none" in all but name

std::string description(const ShellProgram& shell, const core::CommandSandbox* sandbox) {
  // The model learns the sandbox's limits before it meets them, not from a failed command.
  const std::string sandboxLine =
      sandbox != nullptr && sandbox->applies(core::SandboxedProcess::ShellCommand)
          ? "\n- Commands run in an OS sandbox (" + std::string(core::sandboxModeName(sandbox->mode())) + "): " +
                sandbox->allowance() +
                ". When it stops a command, the user may be asked to let that command run outside it; do not look "
                "for another way around it."
          : std::string();
  return R"(Runs a command with )" + shell.name + R"( (`)" + shell.path + R"( -c <command>`) and returns its output and exit code.

Usage:
- The command runs in the workspace directory unless workdir is given; use workdir instead of `cd <dir> && …`.
- Chain dependent commands with `&&`; run independent ones in separate calls.
- stdin is /dev/null and there is no terminal: commands that wait for input, an editor or a pager get end-of-file at once. Pass non-interactive flags (`git commit -m`, `npm init -y`, `apt-get -y`).
- timeout is in milliseconds (default 120000; 0 means none). On timeout the whole process group is stopped and the output so far is returned.
- stdout and stderr are merged. Long output keeps its start and its end (within the output budget, everything included); the full output is saved to a file whose path is given, on the first line, to read or grep.
- Set background: true for servers, watchers and long builds: the call returns at once with a shell ID; bash_output shows its output (with wait, it waits for new output or the job's end; with until: "exit", for the end), bash_kill stops it. Don't start servers with `&` in the foreground: they are stopped when the command ends. Don't poll with sleep.
- A foreground command that runs longer than the client can wait for one call is moved to the background, not stopped: the answer says so and gives its shell ID and the output so far; follow it with bash_output (until: "exit").
- A non-zero exit code is reported, not treated as an error.
- Prefer the dedicated tools over shell equivalents: read (not cat/head/tail), grep (not grep/rg), glob (not find/ls), edit/write (not sed/echo >).)" +
         sandboxLine;
}

// "timeout"'s "maximum" is kMaxTimeoutMs.
static_assert(kMaxTimeoutMs == 604800000, "the input schema's timeout maximum says this");
constexpr auto kInputSchema = compactJson(R"json(
{
  "additionalProperties": false,
  "properties": {
    "background": {
      "description": "Run as a background job and return at once with its shell ID (servers, watchers, long builds)",
      "type": "boolean"
    },
    "command": {
      "description": "The command to run",
      "type": "string"
    },
    "description": {
      "description": "What the command does, in 5-10 words (e.g. \"Lists files in the current directory\")",
      "type": "string"
    },
    "timeout": {
      "description": "Milliseconds before the command is stopped (default 120000; 0: no timeout)",
      "maximum": 604800000,
      "minimum": 0,
      "type": "integer"
    },
    "workdir": {
      "description": "The directory to run the command in (default: the workspace). Use this instead of cd.",
      "type": "string"
    }
  },
  "required": ["command"],
  "type": "object"
})json");

/// How the command ended, in one sentence: the first line of a cut answer says it too.
std::string endStatus(const ShellRunResult& result, std::int64_t timeoutMs) {
  const auto& outcome = result.outcome;
  if (outcome.timedOut) return "Command timed out after " + std::to_string(timeoutMs) + " ms and was stopped.";
  if (outcome.cancelled) return "Command was cancelled; its process group was stopped.";
  if (!outcome.status) return "Command ended; its exit status is unknown.";
  if (outcome.status->signal) return "Command was " + outcome.status->describe() + ".";
  return "Command exited with code " + std::to_string(*outcome.status->code) + ".";
}

/// The second text item: how the command ended, in words.
std::string endNotice(const ShellRunResult& result, std::int64_t timeoutMs) {
  if (result.outcome.timedOut)
    return "Command timed out after " + std::to_string(timeoutMs) +
           " ms and was stopped (SIGTERM to its process group, then SIGKILL). The output above is what it printed "
           "until then. Retry with a larger timeout, or with background: true, if it is expected to take longer.";
  return endStatus(result, timeoutMs);
}

/// The note after a cut output: how much there was, and where all of it is (or, when there was
/// more than one file keeps, its start and end).
std::string truncationNote(std::string_view lines, std::string_view size, std::string_view log,
                           const core::KeptPart& kept = {}) {
  const std::string where =
      kept.whole() ? "The full output is in " + std::string(log)
                   : "The output was too large to keep whole: its file " + std::string(log) + " keeps the first " +
                         core::byteSize(kept.headBytes) + " and the last " + core::byteSize(kept.tailBytes) + " of " +
                         std::to_string(kept.totalBytes) + " bytes";
  return "[Output truncated: the start and the end of " + std::string(lines) + " lines (" + std::string(size) +
         ") are shown. " + where + "; read it with an offset, or grep it, rather than running the command again.]";
}

/// The first line of a cut answer: how the command ended and where the full output is, for a
/// host that keeps only the head of what it is given (the note and the status come last).
std::string cutFirstLine(std::string_view status, std::string_view log, bool whole = true) {
  return "(" + std::string(status) + " Output cut to its start and end; " +
         (whole ? "the full output is in " : "its start and end are kept in ") + std::string(log) + ".)";
}

/// What the model may be shown of the output within the call's budget, once bash's own lines
/// (the first line, the note, the status item) are counted at their widest. The head keeps its
/// usual share: a fifth of the bytes (at most 10 KiB), a quarter of the lines (at most 500).
DigestLimits outputRoom(const core::BoundingLimits& budget, const std::filesystem::path& logFolder, std::int64_t timeoutMs) {
  // A log is "<folder>/tool_<28 characters>"; numbers at their widest.
  const std::string log = (logFolder / ("tool_" + std::string(28, 'x'))).string();
  const std::string lines = core::widestNumber(20), size = "9999999.9 GiB";
  ShellRunResult timedOut;
  timedOut.outcome.timedOut = true;
  const std::string notice = endNotice(timedOut, timeoutMs);
  const std::string status = std::string(std::max<std::size_t>(endStatus(timedOut, timeoutMs).size(), 96), 'x');
  // first "\n" output "\n\n" note, then the status item, joined by "\n": output's lines + 4.
  // The widest note: the one of an output too large to keep whole (every number at its widest).
  const core::KeptPart partial{~std::uint64_t{0}, std::uint64_t{999} << 30, std::uint64_t{999} << 30};
  const std::string frame = cutFirstLine(status, log, false) + "\n" + "\n\n" +
                            truncationNote(lines, size, log, partial) + "\n" + notice;
  const core::BoundingLimits room = core::roomLeft(budget, frame);
  DigestLimits limits;
  limits.maxBytes = room.maxBytes;
  limits.maxLines = budget.maxLines > 4 ? budget.maxLines - 4 : 0;
  limits.headBytes = std::min({limits.headBytes, budget.maxBytes / 5, limits.maxBytes / 2});
  limits.headLines = std::min({limits.headLines, budget.maxLines / 4, limits.maxLines / 2});
  return limits;
}

/// How a run stands to the OS sandbox: inside it, outside it (the sandbox is off, or does not apply),
/// or outside it again after the sandbox stopped the first run and leaving it was granted.
enum class SandboxRun { Inside, Outside, Escalated };

std::string_view sandboxRunName(SandboxRun run) {
  return run == SandboxRun::Inside ? "inside" : run == SandboxRun::Escalated ? "escalated" : "outside";
}

/// `note`: a paragraph after the end notice (why the sandbox was not left).
core::ToolCompletion foregroundResult(const ShellRunResult& result, std::int64_t timeoutMs, json metadata,
                                      SandboxRun sandboxRun = SandboxRun::Outside, const std::string& note = {}) {
  if (!result.outcome.spawnError.empty()) return failure("Unable to run the command: " + result.outcome.spawnError);
  std::string text = result.text.text.empty() ? "(no output)" : result.text.text;
  if (sandboxRun == SandboxRun::Escalated) text = std::string(kEscalatedNote) + "\n" + text;
  // A note follows the output after one blank line.
  const auto blankLine = [&text] { return text.ends_with('\n') ? "\n" : "\n\n"; };
  if (result.text.truncated && result.logPath)
    text += blankLine() + truncationNote(std::to_string(result.outputLines), humanSize(result.outputBytes),
                                         result.logPath->string(), result.logKept);
  if (!result.logError.empty()) text += blankLine() + ("[The full output could not be kept: " + result.logError + "]");
  if (result.text.truncated)
    text = cutFirstLine(endStatus(result, timeoutMs),
                        result.logPath ? result.logPath->string() : std::string("(not kept: see the end)"),
                        result.logKept.whole()) +
           "\n" + text;

  const auto& status = result.outcome.status;
  metadata["exit"] = status && status->code ? json(*status->code) : json();
  metadata["signal"] = status && status->signal ? json(core::signalName(*status->signal)) : json();
  metadata["timedOut"] = result.outcome.timedOut;
  metadata["cancelled"] = result.outcome.cancelled;
  metadata["truncated"] = result.text.truncated;
  metadata["logPath"] = result.logPath ? json(result.logPath->string()) : json();
  if (result.logPath && !result.logKept.whole())
    metadata["logKept"] = json{{"headBytes", result.logKept.headBytes}, {"tailBytes", result.logKept.tailBytes}};
  metadata["outputBytes"] = result.outputBytes;
  metadata["outputLines"] = result.outputLines;
  metadata["durationMs"] = result.elapsed.count();
  metadata["sandbox"] = sandboxRunName(sandboxRun);
  json content = json::array({json{{"type", "text"}, {"text", std::move(text)}},
                              json{{"type", "text"}, {"text", endNotice(result, timeoutMs) + (note.empty() ? "" : "\n" + note)}}});
  return core::ToolResult{std::nullopt, std::move(content), std::move(metadata)};
}

/// "45 s", "1.5 s".
std::string seconds(std::chrono::milliseconds duration) {
  const auto tenths = (duration.count() + 50) / 100;
  return std::to_string(tenths / 10) + (tenths % 10 != 0 ? "." + std::to_string(tenths % 10) : "") + " s";
}

/// A foreground command past the foreground limit, now a background job: what it printed so far,
/// then what happened to it and how to follow it. The model must learn that it still runs (not a
/// failure, not to be run again) and the exact calls that wait for it.
core::ToolCompletion movedResult(const MovedToBackground& moved, std::int64_t timeoutMs,
                                 std::chrono::milliseconds limit, json metadata) {
  const auto& soFar = moved.soFar;
  const auto& job = moved.job;
  std::string text = soFar.text.text.empty() ? "(no output yet)" : soFar.text.text;
  const auto blankLine = [&text] { return text.ends_with('\n') ? "\n" : "\n\n"; };
  if (soFar.text.truncated)
    text += blankLine() + ("[Output so far truncated: the start and the end of " + std::to_string(soFar.outputLines) +
                           " lines (" + humanSize(soFar.outputBytes) + ") are shown; all of it is in the log below.]");
  if (!soFar.logError.empty()) text += blankLine() + ("[The full output could not be kept: " + soFar.logError + "]");

  // bash_output's wait is bounded by the same limit: suggest one wait that fits it.
  const auto waitSeconds = std::max<std::int64_t>(1, std::min<std::int64_t>(60, limit.count() / 1000));
  const std::string id = "\"shellId\": \"" + job.id + "\"";
  const std::string log = job.logPath ? job.logPath->string() : std::string("(no log: ") + soFar.logError + ")";
  std::string notice =
      "Command still running after " + seconds(moved.elapsed) +
      ", so it was moved to the background instead of holding this call: it was NOT stopped and goes on as " + job.id +
      (timeoutMs > 0 ? " (its timeout of " + std::to_string(timeoutMs) + " ms still applies)" : "") +
      ". The output above is what it printed so far; all of its output, from the start, goes to " + log +
      ".\nWait for its end with bash_output {" + id + ", \"until\": \"exit\", \"wait\": " +
      std::to_string(waitSeconds) +
      "} (it answers when the command ends, with its exit code and the output since this answer, or says it is still "
      "running when the wait is over: then call it again), or for its next output with bash_output {" + id +
      ", \"wait\": " + std::to_string(waitSeconds) + "}. Stop it with bash_kill {" + id +
      "}. Do not run the command again: it is still running.";

  metadata["shellId"] = job.id;
  metadata["background"] = true;
  metadata["movedToBackground"] = true;
  metadata["foregroundLimitMs"] = limit.count();
  metadata["logPath"] = job.logPath ? json(job.logPath->string()) : json();
  metadata["truncated"] = soFar.text.truncated;
  metadata["outputBytes"] = soFar.outputBytes;
  metadata["outputLines"] = soFar.outputLines;
  metadata["durationMs"] = moved.elapsed.count();
  json content = json::array({json{{"type", "text"}, {"text", std::move(text)}},
                              json{{"type", "text"}, {"text", std::move(notice)}}});
  return core::ToolResult{std::nullopt, std::move(content), std::move(metadata)};
}

core::ToolCompletion backgroundResult(const JobView& job, json metadata) {
  const std::string log = job.logPath ? job.logPath->string() : std::string("(no log: ") + job.error + ")";
  std::string text = "Command started in the background (shell ID: " + job.id + ").\nOutput is streaming to: " + log +
                     "\nFollow it with bash_output {\"shellId\": \"" + job.id +
                     "\", \"wait\": 30} (it answers as soon as there is new output or the job ends) and stop it with "
                     "bash_kill; do not poll with sleep, carry on with other work.";
  metadata["shellId"] = job.id;
  metadata["background"] = true;
  metadata["logPath"] = job.logPath ? json(job.logPath->string()) : json();
  metadata["truncated"] = false;
  return core::ToolResult{std::nullopt, json(std::move(text)), std::move(metadata)};
}

core::ProcessSpec processSpec(const ShellTools& shell, const std::string& command, const std::filesystem::path& cwd,
                              std::int64_t timeoutMs, const core::ToolContext& context) {
  core::ProcessSpec spec;
  spec.argv = {shell.shell.path, "-c", command};
  spec.cwd = cwd;
  spec.extraEnv = nonInteractiveEnvironment();
  for (auto extra : {"TOOLD_SESSION_ID=" + context.sessionID, "TOOLD_CALL_ID=" + context.callID})
    spec.extraEnv.push_back(std::move(extra));
  spec.mergeOutput = true;
  spec.timeout = std::chrono::milliseconds(timeoutMs);
  return spec;
}

void run(const std::shared_ptr<ShellTools>& shell, const std::string& command, const std::filesystem::path& cwd,
         const json& input, const core::ToolContext& context, const core::ToolDone& done, bool escalated = false);

/// The sandbox stopped the command (it seems): ask whether it may run once more outside, and
/// either run it so or answer with the first run's output and why it was not run again.
void escalate(const std::shared_ptr<ShellTools>& shell, const std::string& command, const std::filesystem::path& cwd,
              const json& input, const core::ToolContext& context, const core::ToolDone& done, ShellRunResult first,
              std::int64_t timeoutMs, json metadata) {
  auto ask = sandboxEscalationAsk(command, *shell->sandbox);
  if (input.contains("description")) ask.metadata["description"] = input["description"];
  assertEach(context, {std::move(ask)},
             [=, first = std::move(first)](std::optional<core::ToolCompletion> refusal) mutable {
               if (!refusal) return run(shell, command, cwd, input, context, done, true);
               std::string why = "refused";
               if (const auto* failed = std::get_if<core::ToolFailure>(&*refusal)) why = failed->message;
               else if (const auto* declined = std::get_if<core::ToolDeclined>(&*refusal)) why = declined->message;
               done(foregroundResult(first, timeoutMs, std::move(metadata), SandboxRun::Inside,
                                     sandboxRefusalNote(*shell->sandbox, why)));
             });
}

void run(const std::shared_ptr<ShellTools>& shell, const std::string& command, const std::filesystem::path& cwd,
         const json& input, const core::ToolContext& context, const core::ToolDone& done, bool escalated) {
  const bool background = input.value("background", false);
  const std::int64_t timeoutMs = input.contains("timeout") ? input["timeout"].get<std::int64_t>()
                                 : background                ? 0
                                                             : kDefaultTimeoutMs;
  const std::string description = input.value("description", "");
  json metadata{{"description", description}, {"shell", shell->shell.name}, {"workdir", cwd.string()}};

  ShellRunOptions options;
  options.spec = processSpec(*shell, command, cwd, timeoutMs, context);
  const bool sandboxed = !escalated && shell->sandbox && shell->sandbox->applies(core::SandboxedProcess::ShellCommand);
  if (sandboxed) shell->sandbox->wrap(options.spec, core::SandboxedProcess::ShellCommand);
  const SandboxRun sandboxRun = sandboxed ? SandboxRun::Inside : escalated ? SandboxRun::Escalated : SandboxRun::Outside;
  options.store = context.location->outputs;
  options.logFolder = options.store ? options.store->folder() : core::OutputStore(context.location->dataDir).folder();
  options.maxLogBytes = options.store ? options.store->limits().fileBytes : 0;
  options.digestLimits = outputRoom(context.budget, options.logFolder, timeoutMs);
  if (background) {
    options.memoryBytes = 0;
    // The job's changes are the call's: its checkpoint is written when the job ends.
    auto started = shell->jobs->start(ShellJobs::Request{context.sessionID, command, description, std::move(options),
                                                         context.checkpoint ? context.checkpoint->holdOpen() : nullptr});
    if (auto* refusal = std::get_if<std::string>(&started)) return done(failure(std::move(*refusal)));
    const auto& job = std::get<JobView>(started);
    if (job.state == JobState::Failed) return done(failure("Unable to run the command: " + job.error));
    return done(backgroundResult(job, std::move(metadata)));
  }
  options.progress = context.progress;
  const auto limit = context.foregroundLimit;
  // A command moved to the background goes on changing files for this call: its checkpoint waits.
  auto holdCheckpoint = [recorder = context.checkpoint]() -> std::function<void()> {
    if (!recorder) return nullptr;
    return recorder->holdOpen();
  };
  runForeground(
      shell->io, shell->runner, shell->jobs,
      ForegroundRequest{context.sessionID, command, description, std::move(options), limit, std::move(holdCheckpoint)},
      context.cancellation,
      [=](ShellRunResult result) mutable {
        if (sandboxRun == SandboxRun::Inside && looksStoppedBySandbox(result))
          return escalate(shell, command, cwd, input, context, done, std::move(result), timeoutMs, std::move(metadata));
        done(foregroundResult(result, timeoutMs, std::move(metadata), sandboxRun));
      },
      [done, timeoutMs, limit, metadata](MovedToBackground moved) mutable {
        done(movedResult(moved, timeoutMs, limit.value_or(std::chrono::milliseconds(0)), std::move(metadata)));
      });
}

} // namespace

core::Tool makeBashTool(std::shared_ptr<ShellTools> shell) {
  core::Tool tool;
  tool.description = description(shell->shell, shell->sandbox.get());
  tool.inputSchemaText = kInputSchema.view();
  tool.permission = "bash";
  tool.mutates = true;
  // On the workers: the scan resolves every path argument on disk (an lstat per component, which a
  // network mount can make slow), and that must not hold the session's queue.
  tool.threading = core::ToolThreading::Workers;
  tool.execute = [shell](json input, core::ToolContext context, core::ToolDone done) {
    const std::string command = input.value("command", "");
    if (command.find_first_not_of(" \t\r\n") == std::string::npos)
      return done(failure("command is empty: give the shell command to run."));
    if (input.contains("timeout") && input["timeout"].get<std::int64_t>() < 0)
      return done(failure("Invalid timeout value: " + input["timeout"].dump() +
                          ". Timeout must be a positive number of milliseconds, or 0 for none."));
    core::ResolvedPath workdir;
    try {
      workdir = core::resolveToolPath(input.value("workdir", "."), *context.location);
    } catch (const core::PathError& e) {
      return done(failure(e.what()));
    }
    if (!workdir.exists) return done(failure("Working directory does not exist: " + workdir.given.string()));
    if (!workdir.isDirectory) return done(failure("Working directory is not a directory: " + workdir.given.string()));

    auto asks = shellPermissionAsks(command, workdir.canonical, *context.location);
    for (auto& ask : asks)
      if (input.contains("description")) ask.metadata["description"] = input["description"];
    assertEach(context, std::move(asks),
               [shell, command, cwd = workdir.canonical, input, context, done](std::optional<core::ToolCompletion> refusal) {
                 if (refusal) return done(std::move(*refusal));
                 run(shell, command, cwd, input, context, done);
               });
  };
  return tool;
}

} // namespace toold::builtins
