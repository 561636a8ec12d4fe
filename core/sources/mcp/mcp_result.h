// An MCP `CallToolResult` as a toold tool ending. Text items pass through; images and audio
// become file items with data URIs; a resource link becomes text naming its URI; an embedded
// resource becomes its text, or a file item for a blob (both keep the server's item, for MCP
// hosts); unknown items are dropped. `isError: true`
// is a model-visible ToolFailure with the server's text (or "MCP tool returned an error"). With an
// output schema, `structuredContent` is the call's `output`.
#pragma once

#include "core/tools/tool.h"
#include "protocol/tool_outcome.h"

namespace toold::core {

/// The result is taken: its texts move into the items rather than being copied.
ToolCompletion mcpResultToCompletion(json result, bool hasOutputSchema, std::string_view toolName);

/// The content items of an MCP content array (also `resources/read`'s contents, which have the
/// embedded resource's shape).
json mcpContentToItems(json content);

/// One embedded resource `{uri, mimeType?, text | blob}` as a content item.
json mcpResourceToItem(const json& resource);

} // namespace toold::core
