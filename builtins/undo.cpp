#include "builtins/undo.h"

#include "builtins/checkpoint/checkpoint_actions.h"
#include "builtins/constant_json.h"
#include "core/tool_service.h"

namespace toold::builtins {

namespace {

using core::json;

const char* kDescription = R"(Takes back changes this session's tool calls made to the workspace: the paths changed from the given call (callID) or message (messageID) on go back to what they were before it; with neither, the newest call not undone yet. redo: true instead takes back the last undo. A path changed outside this session since (a person's edit) refuses the whole undo and is named; nothing is changed then. The changes tool lists the calls and their IDs.)";

std::string restoredText(bool redo, const json& result) {
  const json& restored = result.value("restored", json::array());
  std::string text = std::string(redo ? "Put back" : "Restored") + " " + std::to_string(restored.size()) +
                     (restored.size() == 1 ? " path" : " paths") + (restored.empty() ? "." : ":");
  for (const auto& path : restored) text += "\n" + path.get<std::string>();
  return text;
}

constexpr auto kInputSchema = compactJson(R"json(
{
  "additionalProperties": false,
  "properties": {
    "callID": {
      "description": "Undo this call and every change the session made after it",
      "type": "string"
    },
    "messageID": {
      "description": "Undo this message's calls and every change after them",
      "type": "string"
    },
    "redo": {
      "description": "Take back the last undo instead",
      "type": "boolean"
    }
  },
  "type": "object"
})json");

} // namespace

core::Tool makeUndoTool(core::ToolService& tools) {
  core::Tool tool;
  tool.description = kDescription;
  tool.inputSchemaText = kInputSchema.view();
  tool.permission = "undo";
  tool.mutates = true;
  tool.execute = [&tools](json input, core::ToolContext context, core::ToolDone done) {
    CheckpointPick pick{context.sessionID, {}, {}, {}, {}};
    if (input.contains("callID")) pick.callID = input.value("callID", std::string());
    if (input.contains("messageID")) pick.messageID = input.value("messageID", std::string());
    const bool redo = input.value("redo", false);
    if ((pick.callID && pick.messageID) || (redo && (pick.callID || pick.messageID)))
      return done(core::ToolFailure{"Give one of callID, messageID or redo: true.", std::nullopt});
    const std::string what = redo            ? "redo"
                             : pick.callID    ? "call " + *pick.callID
                             : pick.messageID ? "message " + *pick.messageID
                                              : "last";
    core::PermissionAsk ask{"undo", {what}, {"*"}, json{{"undo", what}}};
    context.assertPermission(std::move(ask), [&tools, pick, redo, done](std::optional<core::ToolCompletion> refusal) {
      if (refusal) return done(std::move(*refusal));
      restoreCheckpoints(tools, pick, redo, "undo", [redo, done](CheckpointAnswer<json> outcome) {
        if (auto* no = std::get_if<CheckpointRefusal>(&outcome)) {
          std::string message = no->message;
          if (no->conflict) {
            message = "Nothing was undone: these paths were changed outside this session since, and undoing would lose that:";
            for (const auto& path : no->conflicts) message += "\n" + path;
          }
          return done(core::ToolFailure{message, json{{"reason", no->reason}, {"conflicts", no->conflicts}}});
        }
        done(core::ToolResult{std::nullopt, json(restoredText(redo, std::get<json>(outcome))), std::get<json>(outcome)});
      });
    });
  };
  return tool;
}

} // namespace toold::builtins
