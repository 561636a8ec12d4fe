#include "builtins/task.h"

#include "builtins/constant_json.h"
#include "builtins/tool_support.h"

#include <algorithm>

namespace toold::builtins {

namespace {

using core::json;

constexpr std::string_view kNoDescription = "This subagent should only be called manually by the user.";

const char* kDescriptionHead = R"(Launch a new agent to handle complex, multistep tasks autonomously.

Available agent types and the tools they have access to:
)";

const char* kDescriptionTail = R"(

When using the Task tool, you must specify a subagent_type parameter to select which agent type to use.

When NOT to use the Task tool:
- If you want to read a specific file path, use the read or glob tool instead, to find the match more quickly
- If you are searching for a specific class definition like "class Foo", use the glob tool instead
- If you are searching for code within a specific file or set of 2-3 files, use the read tool instead

Usage notes:
1. Launch multiple agents concurrently whenever possible, to maximize performance; to do that, use a single message with multiple tool uses
2. When the agent is done, it will return a single message back to you. The result returned by the agent is not visible to the user. To show the user the result, you should send a text message back to the user with a concise summary of the result. The output includes a task_id you can reuse later to continue the same subagent session.
3. Each agent invocation starts with a fresh context unless you provide task_id to resume the same subagent session (which continues with its previous messages and tool outputs). When starting fresh, your prompt should contain a highly detailed task description for the agent to perform autonomously and you should specify exactly what information the agent should return back to you in its final and only message to you.
4. The agent's outputs should generally be trusted
5. Clearly tell the agent whether you expect it to write code or just to do research (search, file reads, web fetches, etc.), since it is not aware of the user's intent.)";

// Closed like every built-in's: a parameter task/run would not carry (opencode's newer
// `background`, `model`) is refused by name, not silently run in the foreground on the
// default model.
constexpr auto kInputSchema = compactJson(R"json(
{
  "additionalProperties": false,
  "properties": {
    "command": {
      "description": "The command that triggered this task",
      "type": "string"
    },
    "description": {
      "description": "A short (3-5 words) description of the task",
      "type": "string"
    },
    "prompt": {
      "description": "The task for the agent to perform",
      "type": "string"
    },
    "subagent_type": {
      "description": "The type of specialized agent to use for this task",
      "type": "string"
    },
    "task_id": {
      "description": "This should only be set if you mean to resume a previous task (you can pass a prior task_id and the task will continue the same subagent session as before instead of creating a fresh one)",
      "type": "string"
    }
  },
  "required": ["description", "prompt", "subagent_type"],
  "type": "object"
})json");

// The agents the caller may start: listed by the snapshot and not denied `task` on their name.
std::vector<std::pair<std::string, std::string>> permittedAgents(const core::CatalogView& catalog) {
  std::vector<std::pair<std::string, std::string>> agents;
  for (const auto& agent : catalog.agents) {
    const std::string name = agent.value("name", std::string());
    if (name.empty() || catalog.denies("task", name)) continue;
    agents.emplace_back(name, agent.value("description", std::string(kNoDescription)));
  }
  std::sort(agents.begin(), agents.end());
  return agents;
}

} // namespace

std::optional<std::string> describeTask(const core::CatalogView& catalog) {
  if (!catalog.declared("task")) return std::nullopt;
  std::string list;
  for (const auto& [name, description] : permittedAgents(catalog))
    list += (list.empty() ? "" : "\n") + std::string("- ") + name + ": " + description;
  if (list.empty()) list = "(none: no agent is available to this agent)";
  return std::string(kDescriptionHead) + list + kDescriptionTail;
}

std::string taskResultText(const std::string& taskID, const std::string& text) {
  return "task_id: " + taskID + " (for resuming to continue this task if needed)\n\n<task_result>\n" + text +
         "\n</task_result>";
}

core::Tool makeTaskTool(ClientRequester requester) {
  auto execute = [requester](json input, core::ToolContext context, core::ToolDone done) {
    const std::string subagent = input.value("subagent_type", std::string());
    const std::string description = input.value("description", std::string());
    if (!context.catalog || !context.catalog->declared("task"))
      return done(failure("Subagents cannot be started here: the client did not declare the task capability."));
    // When the snapshot named its agents, only those exist.
    if (!context.catalog->agents.empty()) {
      const auto& agents = context.catalog->agents;
      const bool known = std::any_of(agents.begin(), agents.end(),
                                     [&](const json& a) { return a.value("name", std::string()) == subagent; });
      if (!known) return done(failure("Unknown agent type: " + subagent + " is not a valid agent type"));
    }
    core::PermissionAsk ask{"task", {subagent}, {"*"}, json{{"description", description}, {"subagent_type", subagent}}};
    context.assertPermission(std::move(ask), [requester, input = std::move(input), context, description,
                                              done](std::optional<core::ToolCompletion> refusal) mutable {
      if (refusal) return done(std::move(*refusal));
      json params{{"sessionID", context.sessionID}, {"agent", context.agent}, {"messageID", context.messageID},
                  {"callID", context.callID}};
      for (const char* key : {"description", "prompt", "subagent_type", "task_id", "command"})
        if (input.contains(key)) params[key] = input[key];
      // A subagent works for as long as it needs: the permission timeout is for people, not for
      // work, so task/run waits until it is answered or the call is cancelled.
      ClientRequester unbounded{requester.io, requester.client, std::nullopt};
      unbounded.send("task/run", std::move(params), context.cancellation, [description, done](ClientRequestEnd end) {
        using Kind = ClientRequestEnd::Kind;
        if (end.kind != Kind::Answered) return done(failure("The task was cancelled."));
        if (end.reply.error) return done(failure("The task failed: " + end.reply.error->message));
        const json result = end.reply.result.value_or(json());
        if (!result.is_object() || !result.contains("task_id") || !result["task_id"].is_string() ||
            !result.value("text", json()).is_string())
          return done(core::ToolDefect{"the client's task/run answer is not {task_id: string, text: string}"});
        const std::string taskID = result["task_id"];
        json metadata{{"title", description}, {"sessionId", taskID}};
        if (result.contains("model")) metadata["model"] = result["model"];
        done(core::ToolResult{std::nullopt, json(taskResultText(taskID, result["text"])), std::move(metadata)});
      });
    });
  };
  core::Tool tool;
  tool.description = std::string(kDescriptionHead) + "(the agents the runner offers)" + kDescriptionTail;
  tool.inputSchemaText = kInputSchema.view();
  tool.permission = "task";
  tool.threading = core::ToolThreading::Inline;
  tool.execute = std::move(execute);
  tool.describe = describeTask;
  return tool;
}

} // namespace toold::builtins
