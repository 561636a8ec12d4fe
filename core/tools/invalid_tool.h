// opencode's `invalid` tool (§15.6, §18.4): never advertised, it is where a call the runner could
// not accept ends — an unknown tool name, an input that does not decode — so the model reads what
// went wrong as a tool result and tries again, instead of the turn failing.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace toold::core {

inline constexpr std::string_view kInvalidToolName = "invalid";

/// "The arguments provided to the tool are invalid: <error>"
std::string invalidArgumentsText(std::string_view error);

/// The error of a direct `invalid` call, whose input is {tool, error}; anything else is described.
std::string invalidToolError(const nlohmann::json& input);

} // namespace toold::core
