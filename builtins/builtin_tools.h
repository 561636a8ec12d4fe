// The built-in tools toold serves in every workspace, registered in the reserved scope
// "toold:builtin" so that a client's registration of the same name shadows them.
#pragma once

#include "core/tools/tool.h"

#include <string>
#include <utility>
#include <vector>

namespace toold::core {
class ToolService;
}

namespace toold::builtins {

inline constexpr const char* kBuiltinScope = "toold:builtin";

/// The built-ins, by name, as they are registered (and, as their setup, what ends a session's
/// background jobs is added to `tools`).
std::vector<std::pair<std::string, core::Tool>> makeBuiltinTools(core::ToolService& tools);

/// makeBuiltinTools(), registered in kBuiltinScope.
void registerBuiltinTools(core::ToolService& tools);

} // namespace toold::builtins
