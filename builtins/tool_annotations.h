// What MCP hosts are told about each built-in besides its schema: a human title and the behaviour
// hints (readOnlyHint, destructiveHint, idempotentHint, openWorldHint) a host uses to decide what
// to confirm with the person. Hints, not guarantees: toold's permissions still decide.
#pragma once

#include "core/tools/tool.h"

#include <string_view>

namespace toold::builtins {

/// Sets `tool.title` and `tool.annotations` for the built-in named `name`; a name this table does
/// not know is a defect (every built-in is listed here), caught by the unit test.
void annotateBuiltin(std::string_view name, core::Tool& tool);

} // namespace toold::builtins
