// `todowrite`: replaces the session's whole todo list (opencode §15.1).
#pragma once

#include "builtins/session/todo_store.h"
#include "core/tools/tool.h"

#include <memory>

namespace toold::builtins {

core::Tool makeTodoWriteTool(std::shared_ptr<TodoStore> store);

/// "<n> todos": the items whose status is not "completed" (cancelled ones count, as in opencode).
std::string todoTitle(const core::json& todos);

} // namespace toold::builtins
