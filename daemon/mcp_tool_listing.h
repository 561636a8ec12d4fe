// A tool as MCP's tools/list shows it: its definition with MCP's title and hints, and object
// schemas only (see mcpDefinition). Listing thousands of registered tools page by page is written
// from the definitions' texts as the registry keeps them, never parsed again.
#pragma once

#include "core/tools/snapshot.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <functional>
#include <optional>
#include <string>

namespace toold::daemon {

/// The tool's listing as a document; nothing for a tool MCP cannot call (its input is not an
/// object). What appendMcpDefinition writes, when it can, parses to exactly this.
std::optional<nlohmann::json> mcpDefinition(const core::RegisteredTool& tool);

/// Appends the tool's listing to `out` as JSON text, assembled from the definition text the tool
/// shows when its schemas need no change (RegisteredTool::shownObjectSchemas). False, with `out`
/// untouched, when they do: the caller then lists mcpDefinition's document instead.
bool appendMcpDefinition(std::string& out, const core::RegisteredTool& tool);

/// One page of tools/list: {nextCursor?, tools}, as JSON text appended to `out`, from the
/// snapshot's tool `offset` on, at most `pageSize` listed. `nextCursor` is given the offset the
/// next page starts at, when tools remain.
void appendToolsListPage(std::string& out, const core::Snapshot& snapshot, std::size_t offset, std::size_t pageSize,
                         const std::function<std::string(std::size_t next)>& nextCursor);

} // namespace toold::daemon
