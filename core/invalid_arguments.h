// The answer a model gets when its tool call does not match the tool's input schema: what is
// wrong, where, and the arguments it sent, so it can correct them and call again.
#pragma once

#include "core/json_schema.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace toold::core {

/// Issues listed one per line; the rest are counted, since a model fixes the first few and then
/// learns about the others on the next call.
inline constexpr std::size_t kMaxListedIssues = 5;

/// Invalid arguments for tool "<name>":
/// - <path>: <message>                      (at most kMaxListedIssues lines)
/// - ...and N more issue(s)
///
/// Arguments provided:
/// <arguments, json::dump(2)>
///
/// Update the arguments and call the tool again.
std::string formatInvalidArguments(std::string_view toolName, const std::vector<SchemaIssue>& issues,
                                   const json& arguments);

}  // namespace toold::core
