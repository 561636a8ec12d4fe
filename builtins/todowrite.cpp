#include "builtins/todowrite.h"

#include "builtins/constant_json.h"
#include "builtins/tool_support.h"

namespace toold::builtins {

namespace {

using core::json;

const char* kDescription = R"(Use this tool to create and manage a structured task list for your current session. It helps you track progress, organize complex tasks, and show the user how the work is going.

When to use it:
- A task needs three or more distinct steps, or careful planning.
- The user gives you several things to do (a numbered or comma-separated list).
- After new instructions: capture them as todos. When you start a task, mark it in_progress (only one at a time); when you finish it, mark it completed at once, before starting the next.

When not to use it: a single, trivial task, or a purely conversational request.

Each call replaces the whole list: send every todo, not only the changed ones.
- status: pending, in_progress, completed or cancelled
- priority: high, medium or low)";

constexpr auto kInputSchema = compactJson(R"json(
{
  "properties": {
    "todos": {
      "description": "The updated todo list",
      "items": {
        "properties": {
          "content": {
            "description": "Brief description of the task",
            "type": "string"
          },
          "priority": {
            "description": "Priority level of the task: high, medium, low",
            "type": "string"
          },
          "status": {
            "description": "Current status of the task: pending, in_progress, completed, cancelled",
            "type": "string"
          }
        },
        "required": ["content", "status", "priority"],
        "type": "object"
      },
      "type": "array"
    }
  },
  "required": ["todos"],
  "type": "object"
})json");

} // namespace

std::string todoTitle(const json& todos) {
  std::size_t open = 0;
  for (const auto& todo : todos)
    if (todo.value("status", std::string()) != "completed") ++open;
  return std::to_string(open) + " todos";
}

core::Tool makeTodoWriteTool(std::shared_ptr<TodoStore> store) {
  auto execute = [store](json input, core::ToolContext context, core::ToolDone done) {
    json todos = std::move(input["todos"]);
    context.assertPermission(
        core::PermissionAsk{"todowrite", {"*"}, {"*"}, json::object()},
        [store, todos = std::move(todos), context, done](std::optional<core::ToolCompletion> refusal) mutable {
          if (refusal) return done(std::move(*refusal));
          // A list that could not be saved still holds for this daemon's life: the call succeeds.
          store->write(context.sessionID, todos);
          json metadata{{"title", todoTitle(todos)}, {"todos", todos}};
          done(core::ToolResult{std::nullopt, json(todos.dump(2)), std::move(metadata)});
        });
  };
  return workerTool(kDescription, kInputSchema.view(), "todowrite", false, std::move(execute));
}

} // namespace toold::builtins
