#include "builtins/bash_kill.h"

#include "builtins/constant_json.h"
#include "builtins/tool_support.h"

namespace toold::builtins {

namespace {

using core::json;

const char* kDescription = R"(Stops a background job started with bash (background: true): SIGTERM to its whole process group, then SIGKILL 3 seconds later if it is still running. Returns once it has ended, with the end of its output.

Usage:
- shellId is the ID bash returned ("shell-1"); bash_jobs lists them.)";

constexpr auto kInputSchema = compactJson(R"json(
{
  "additionalProperties": false,
  "properties": {
    "shellId": {
      "description": "The background job's shell ID",
      "type": "string"
    }
  },
  "required": ["shellId"],
  "type": "object"
})json");

} // namespace

core::Tool makeBashKillTool(std::shared_ptr<ShellTools> shell) {
  core::Tool tool;
  tool.description = kDescription;
  tool.inputSchemaText = kInputSchema.view();
  tool.permission = "bash";
  tool.mutates = true;
  tool.threading = core::ToolThreading::Inline; // it only signals and waits for the exit
  tool.execute = [shell](json input, core::ToolContext context, core::ToolDone done) {
    const std::string id = input.value("shellId", "");
    const bool wasRunning = [&] {
      auto job = shell->jobs->find(context.sessionID, id);
      return job && job->state == JobState::Running;
    }();
    shell->jobs->kill(context.sessionID, id, [shell, id, session = context.sessionID, wasRunning,
                                              done](std::optional<JobView> job) {
      if (!job) return done(failure(noSuchJob(*shell->jobs, session, id)));
      std::string text = wasRunning ? "Stopped " + job->id + " (" + job->command + "): " + jobStatus(*job) + "."
                                    : job->id + " had already ended: " + jobStatus(*job) + ".";
      if (!job->tail.empty()) text += "\nThe end of its output:\n" + job->tail;
      json metadata = job->toJson();
      metadata["truncated"] = false;
      done(core::ToolResult{std::nullopt, json(std::move(text)), std::move(metadata)});
    });
  };
  return tool;
}

} // namespace toold::builtins
