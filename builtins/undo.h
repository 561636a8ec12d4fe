// `undo`: takes back what the calling session changed in the workspace from a call or message on
// (the newest call still standing when none is named), or redoes the last undo, through the same
// restore as checkpoint/restore (docs/checkpoints.md): a path a person changed since refuses it.
// Off by default (the permission key `undo`).
#pragma once

#include "core/tools/tool.h"

namespace toold::core {
class ToolService;
}

namespace toold::builtins {

core::Tool makeUndoTool(core::ToolService& tools);

} // namespace toold::builtins
