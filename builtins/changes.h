// `changes`: what the calling session changed in the workspace, from its checkpoints
// (docs/checkpoints.md): a line per checkpoint, or the diff of one call or message. For MCP hosts
// to offer the person or the model; off by default (the permission key `undo`).
#pragma once

#include "core/tools/tool.h"

namespace toold::core {
class ToolService;
}

namespace toold::builtins {

core::Tool makeChangesTool(core::ToolService& tools);

} // namespace toold::builtins
