// The answer a model gets when its tool call does not match the tool's input schema: what is
// wrong, where, and the arguments it sent, so it can correct them and call again.
#pragma once

#include "core/schema/json_schema.h"
#include "protocol/bounded_json.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace toold::core {

/// Issues listed one per line; the rest are counted, since a model fixes the first few and then
/// learns about the others on the next call.
inline constexpr std::size_t kMaxListedIssues = 5;

/// How the arguments are shown back: enough to recognize and fix them, never the whole of a
/// megabyte or 100,000-level value (deeper containers show as `[...]`, the text is cut at 16 KiB).
inline constexpr protocol::RenderLimits kArgumentsRender{.maxDepth = 32, .maxBytes = 16 * 1024, .indent = 2};

/// Invalid arguments for tool "<name>":
/// - <path>: <message>                      (at most kMaxListedIssues lines)
/// - ...and N more issue(s)
///
/// Arguments provided:
/// <arguments, as json::dump(2), within kArgumentsRender>
///
/// Update the arguments and call the tool again.
std::string formatInvalidArguments(std::string_view toolName, const std::vector<SchemaIssue>& issues,
                                   const json& arguments);

}  // namespace toold::core
