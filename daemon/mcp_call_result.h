// MCP's CallToolResult for a call's outcome: toold's content items as MCP's, the structured
// output, and what the host (not the model) should know in `_meta`.
#pragma once

#include "protocol/tool_outcome.h"

#include <nlohmann/json.hpp>

#include <string>

namespace toold::daemon {

/// One of toold's content items as MCP's: inline file items become images or audio, or an
/// embedded resource with the bytes as its blob (a PDF); file items that point elsewhere become
/// resource links; an item relayed from an MCP server that kept its own `resource_link` or
/// `resource` item (kMcpItemKey) becomes that item again; anything else is already MCP's.
nlohmann::json mcpContentItem(nlohmann::json item);

/// The outcome as a CallToolResult, written out as JSON text: a completed call's items, its
/// output as `structuredContent` when that is an object (any other output is in the text content
/// already), `isError`; a failed call's message as its text; notices in `_meta["toold/notices"]`.
void appendCallToolResult(std::string& out, const protocol::ToolOutcome& outcome);

} // namespace toold::daemon
