// `execute`: Code Mode's one tool. The model writes one JavaScript program that calls many tools
// (`await tools.github.list_issues({...})`, loops, Promise.all); a worker process runs it
// confined, each inner call goes through the whole pipeline, and only the program's result
// reaches the model. Snapshots that use Code Mode advertise it (see core/tools/snapshot.h).
#pragma once

#include "builtins/codemode/worker_protocol.h"
#include "core/permission/permission_config.h"
#include "core/tools/tool.h"

#include <functional>
#include <string>

namespace toold::core {
class ToolService;
}

namespace toold::builtins {

/// Its description, the same whatever the catalog holds (provider tool definitions and prompt
/// caches stay stable).
extern const char* const kExecuteDescription;

/// Gives `service` the `execute` tool, with workers started from `executable` (toold-codemode,
/// beside toold's own executable, when empty).
/// With Code Mode on in the config, one worker is started now, so the first program skips the
/// engine's start-up.
/// Returns what starts a worker ahead of a program when none is idle (for a Code Mode snapshot).
std::function<void()> installExecuteTool(core::ToolService& service, const core::CodemodeSettings& settings,
                                         const codemode::WorkerSettings& worker = {},
                                         std::string executable = {});

} // namespace toold::builtins
