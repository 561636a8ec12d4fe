#include "core/sources/command_tool.h"

#include "core/sources/client_tool.h"
#include "core/process/process_runner.h"
#include "protocol/bounded_json.h"

namespace toold::core {

namespace {

bool looksLikeResult(const json& value) {
  if (!value.is_object() || value.empty()) return false;
  for (const auto& [key, member] : value.items())
    if (key != "output" && key != "content" && key != "metadata") return false;
  return true;
}

std::string withStderr(std::string message, const std::string& stderrTail) {
  if (stderrTail.empty()) return message;
  return message + "\nstderr:\n" + stderrTail;
}

} // namespace

ToolCompletion commandStdoutToResult(const std::string& stdoutData, std::string_view name) {
  const auto first = stdoutData.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && stdoutData[first] == '{') {
    // The command is not toold's: its JSON is bounded in depth like a frame, since the result is
    // copied, validated and dumped recursively. What does not parse within bounds is plain text.
    auto parsed = protocol::parseBounded(stdoutData);
    if (parsed && looksLikeResult(parsed.value))
      return parseToolResult(parsed.value, "the command of tool \"" + std::string(name) + "\"");
  }
  if (first == std::string::npos) return ToolResult{std::nullopt, json("(no output)"), std::nullopt};
  return ToolResult{std::nullopt, json(stdoutData), std::nullopt};
}

ToolExecute makeCommandToolExecute(ProcessRunner& runner, protocol::HandlerSpec handler, std::string name,
                                   std::shared_ptr<const CommandSandbox> sandbox) {
  return [&runner, handler = std::move(handler), name = std::move(name),
          sandbox = std::move(sandbox)](json input, ToolContext context, ToolDone done) {
    ProcessSpec spec;
    spec.argv = handler.argv;
    spec.cwd = context.location->directory;
    if (handler.cwd) spec.cwd = spec.cwd / *handler.cwd;
    // The call's identity, for commands that log or keep state per session.
    spec.extraEnv = {"TOOLD_TOOL=" + name, "TOOLD_SESSION_ID=" + context.sessionID, "TOOLD_AGENT=" + context.agent,
                     "TOOLD_MESSAGE_ID=" + context.messageID, "TOOLD_CALL_ID=" + context.callID};
    spec.stdinData = input.dump(-1, ' ', false, json::error_handler_t::replace);
    spec.timeout = std::chrono::milliseconds(handler.timeoutMs.value_or(0));
    const auto timeoutMs = handler.timeoutMs.value_or(0);
    if (sandbox) sandbox->wrap(spec, SandboxedProcess::CommandTool);
    runCaptured(runner, std::move(spec), context.cancellation, kCommandStdoutCap, kCommandStderrTail,
                [done = std::move(done), name, timeoutMs](CapturedRun run) {
                  const auto& outcome = run.outcome;
                  if (!outcome.spawnError.empty())
                    return done(ToolFailure{"The command of tool \"" + name + "\" could not start: " + outcome.spawnError,
                                            std::nullopt});
                  if (outcome.cancelled) return done(ToolFailure{"The command was cancelled", std::nullopt});
                  if (outcome.timedOut)
                    return done(ToolFailure{
                        withStderr("The command timed out after " + std::to_string(timeoutMs) + " ms", run.stderrTail),
                        std::nullopt});
                  if (!outcome.status || outcome.status->signal || outcome.status->code.value_or(-1) != 0) {
                    // "The command failed with exit code 3", "The command was killed by signal 9 (SIGKILL)".
                    const std::string how = !outcome.status         ? "ended with an unknown status"
                                            : outcome.status->signal ? "was " + outcome.status->describe()
                                                                     : "failed with " + outcome.status->describe();
                    return done(ToolFailure{withStderr("The command " + how, run.stderrTail), std::nullopt});
                  }
                  if (run.stdoutTruncated)
                    return done(ToolFailure{"The command printed more than " +
                                                std::to_string(kCommandStdoutCap / (1024 * 1024)) + " MiB",
                                            std::nullopt});
                  done(commandStdoutToResult(run.stdoutData, name));
                });
  };
}

} // namespace toold::core
