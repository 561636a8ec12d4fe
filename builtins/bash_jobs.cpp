#include "builtins/bash_jobs.h"

#include "builtins/constant_json.h"
#include "builtins/tool_support.h"

namespace toold::builtins {

namespace {

using core::json;

const char* kDescription = R"(Lists this session's background jobs (started with bash and background: true): shell ID, state, exit code, runtime, output size and command. Oldest first; the 25 most recent finished jobs are kept.)";

/// A command on one line of at most 120 characters, for the list.
std::string oneLine(const std::string& command) {
  std::string line = command.substr(0, command.find('\n'));
  if (line.size() > 120) line = line.substr(0, 117);
  return line.size() < command.size() ? line + "…" : line;
}

std::string seconds(std::chrono::milliseconds runtime) {
  const auto tenths = runtime.count() / 100;
  return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + " s";
}

constexpr auto kInputSchema = compactJson(R"json(
{
  "additionalProperties": false,
  "properties": {},
  "type": "object"
})json");

} // namespace

core::Tool makeBashJobsTool(std::shared_ptr<ShellTools> shell) {
  core::Tool tool;
  tool.description = kDescription;
  tool.inputSchemaText = kInputSchema.view();
  tool.permission = "bash";
  tool.threading = core::ToolThreading::Inline; // reads the job table only
  tool.execute = [shell](json, core::ToolContext context, core::ToolDone done) {
    const auto jobs = shell->jobs->list(context.sessionID);
    json list = json::array();
    std::string text;
    for (const auto& job : jobs) {
      list.push_back(job.toJson());
      text += jobStatus(job) + " · " + seconds(job.runtime) + " · " + humanSize(job.outputBytes) + " of output · " +
              oneLine(job.command) + "\n";
    }
    if (jobs.empty()) text = "No background jobs in this session.";
    done(core::ToolResult{std::nullopt, json(std::move(text)), json{{"jobs", std::move(list)}, {"truncated", false}}});
  };
  tool.polls = true; // its answer changes as the job runs: repeating it is no loop
  return tool;
}

} // namespace toold::builtins
