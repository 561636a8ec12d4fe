#include "builtins/todoread.h"

#include "builtins/constant_json.h"
#include "builtins/todowrite.h"
#include "builtins/tool_support.h"

namespace toold::builtins {

namespace {

using core::json;

const char* kDescription = R"(Use this tool to read the current to-do list for the session. Use it often, especially at the start of a conversation, before starting new tasks, and when unsure what to do next. It takes no parameters and returns the list with each task's status and priority.)";

constexpr auto kInputSchema = compactJson(R"json(
{
  "properties": {},
  "type": "object"
})json");

} // namespace

core::Tool makeTodoReadTool(std::shared_ptr<TodoStore> store) {
  auto execute = [store](json, core::ToolContext context, core::ToolDone done) {
    context.assertPermission(core::PermissionAsk{"todoread", {"*"}, {"*"}, json::object()},
                             [store, context, done](std::optional<core::ToolCompletion> refusal) {
                               if (refusal) return done(std::move(*refusal));
                               json todos = store->read(context.sessionID);
                               json metadata{{"title", todoTitle(todos)}, {"todos", todos}};
                               done(core::ToolResult{std::nullopt, json(todos.dump(2)), std::move(metadata)});
                             });
  };
  return workerTool(kDescription, kInputSchema.view(), "todoread", false,
                    std::move(execute));
}

} // namespace toold::builtins
