// opencode's `{env:NAME}` in configuration strings: the MCP servers', the language servers' and the
// formatters' commands and environments may name a variable rather than hold a secret.
#pragma once

#include <string>
#include <string_view>

namespace toold::core {

/// `text` with every `{env:NAME}` replaced by the variable's value (empty when unset).
std::string substituteEnvironment(std::string_view text);

} // namespace toold::core
