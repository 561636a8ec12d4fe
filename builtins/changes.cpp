#include "builtins/changes.h"

#include "builtins/checkpoint/checkpoint_actions.h"
#include "builtins/constant_json.h"
#include "core/tool_service.h"

namespace toold::builtins {

namespace {

using core::json;

const char* kDescription = R"(Shows what this session's tool calls changed in the workspace: with no parameters, one line per checkpoint (its id, the tool, the call ID, and each path created, modified, deleted, renamed or with its mode changed); with callID or messageID, the unified diff of what that call or message changed. Read-only. Use the undo tool to take changes back.)";

std::string changeText(const json& change) {
  std::string text = change.value("change", std::string("changed")) + " ";
  if (change.contains("from")) text += change.value("from", std::string()) + " -> ";
  text += change.value("path", std::string());
  if (change.value("restorable", true) == false) text += " (cannot be restored)";
  return text;
}

/// The list as the model reads it: a line per checkpoint.
std::string listText(const json& list) {
  std::string text;
  for (const auto& checkpoint : list.value("checkpoints", json::array())) {
    const std::string kind = checkpoint.value("kind", std::string());
    text += "#" + checkpoint.value("id", json(0)).dump() + " ";
    if (kind == "call") text += checkpoint.value("tool", std::string()) + " call " + checkpoint.value("callID", std::string());
    else text += kind + (checkpoint.contains("of") ? " of #" + checkpoint["of"].dump() : std::string());
    text += ":";
    const json& changes = checkpoint.value("changes", json::array());
    for (std::size_t i = 0; i < changes.size(); ++i) text += (i == 0 ? " " : ", ") + changeText(changes[i]);
    text += "\n";
  }
  if (list.contains("evicted")) text += "Older checkpoints were " + list.value("evicted", std::string()) + ".\n";
  if (text.empty()) text = "This session has changed nothing in the workspace.\n";
  return text;
}

constexpr auto kInputSchema = compactJson(R"json(
{
  "additionalProperties": false,
  "properties": {
    "callID": {
      "description": "The call whose diff to show",
      "type": "string"
    },
    "messageID": {
      "description": "The message whose calls' diff to show",
      "type": "string"
    }
  },
  "type": "object"
})json");

} // namespace

core::Tool makeChangesTool(core::ToolService& tools) {
  core::Tool tool;
  tool.description = kDescription;
  tool.inputSchemaText = kInputSchema.view();
  // Hidden with `undo` (off by default); it only reads, so it never asks.
  tool.permission = "undo";
  tool.execute = [&tools](json input, core::ToolContext context, core::ToolDone done) {
    CheckpointPick pick{context.sessionID, {}, {}, {}, {}};
    if (input.contains("callID")) pick.callID = input.value("callID", std::string());
    if (input.contains("messageID")) pick.messageID = input.value("messageID", std::string());
    if (pick.callID && pick.messageID)
      return done(core::ToolFailure{"Give callID or messageID, not both.", std::nullopt});
    if (!pick.callID && !pick.messageID) {
      const auto book = tools.checkpoints();
      if (!book) return done(core::ToolFailure{checkpointsOff().message, std::nullopt});
      json list = listCheckpoints(*book, context.sessionID);
      std::string text = listText(list);
      return done(core::ToolResult{std::nullopt, json(std::move(text)), json{{"checkpoints", list["checkpoints"]}}});
    }
    auto diff = diffCheckpoints(tools, pick);
    if (auto* refusal = std::get_if<CheckpointRefusal>(&diff))
      return done(core::ToolFailure{refusal->message, json{{"reason", refusal->reason}}});
    json& result = std::get<json>(diff);
    json metadata{{"files", result["files"]}};
    if (result.contains("outputPath")) metadata["outputPath"] = result["outputPath"];
    std::string text = result.value("diff", std::string());
    if (text.empty()) text = "No differences.";
    done(core::ToolResult{std::nullopt, json(std::move(text)), std::move(metadata)});
  };
  return tool;
}

} // namespace toold::builtins
