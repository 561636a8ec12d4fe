// `todoread`: the session's todo list as todowrite left it. opencode dropped it, but models trained
// on older prompts still call it.
#pragma once

#include "builtins/session/todo_store.h"
#include "core/tools/tool.h"

#include <memory>

namespace toold::builtins {

core::Tool makeTodoReadTool(std::shared_ptr<TodoStore> store);

} // namespace toold::builtins
