// The built-in tools toold serves in every workspace, registered in the reserved scope
// "toold:builtin" so that a client's registration of the same name shadows them.
#pragma once

namespace toold::core {
class ToolService;
}

namespace toold::builtins {

inline constexpr const char* kBuiltinScope = "toold:builtin";

void registerBuiltinTools(core::ToolService& tools);

} // namespace toold::builtins
