// `task`: delegating work to a subagent (opencode §15.5). toold runs no model, so the runner does
// it: a `task/run` request to a client that declared `capabilities.task`, whose answer becomes
// opencode's output. Without that capability the tool is not advertised at all.
#pragma once

#include "builtins/client/client_request.h"
#include "core/tools/tool.h"

namespace toold::builtins {

core::Tool makeTaskTool(ClientRequester requester);

/// The description a snapshot advertises: opencode's task text with the agents of `catalog` that
/// its rules do not deny for `task`, sorted by name; nullopt when the client cannot run tasks.
std::optional<std::string> describeTask(const core::CatalogView& catalog);

/// "task_id: <id> (for resuming to continue this task if needed)\n\n<task_result>\n<text>\n</task_result>"
std::string taskResultText(const std::string& taskID, const std::string& text);

} // namespace toold::builtins
