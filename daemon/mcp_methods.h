// The MCP face: `tools/list` and `tools/call` answered from an implicit snapshot of a default
// session, so that any MCP client can use toold as a tool server.
#pragma once

#include "core/output/output_bounding.h"
#include "daemon/tool_methods.h"

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>

namespace toold::core {
class ToolService;
}

namespace toold::daemon {

class Server;

/// How many tools one `tools/list` page holds.
inline constexpr std::size_t kToolsListPageSize = 100;

/// What every MCP tools/call gets. `keepAlive`: a call with a progress token that sent no progress
/// for this long repeats its newest progress message. `foregroundLimit`: how long a call may run
/// before a long command answers from the background (ToolContext::foregroundLimit); hosts give
/// up on a call after a fixed time. `budget`: what a tool's answer may hold, everything included.
struct McpCallSettings {
  std::chrono::milliseconds keepAlive = std::chrono::seconds(20);
  std::optional<std::chrono::milliseconds> foregroundLimit;
  /// What a tool's answer may hold on this face (output_budgets.h).
  core::BoundingLimits budget;
};

/// `settled` waits for MCP servers still starting (as `snapshot` does): the first `tools/list`
/// holds their tools, and a call of a tool not listed yet waits for them before it is refused.
void bindMcpMethods(Server& server, core::ToolService& tools, SnapshotGate settled = {},
                    McpCallSettings settings = {});

class ClientLogSink;
/// `logging/setLevel {level}`: from then on toold's log lines at or above it reach the client as
/// `notifications/message`.
void bindMcpLogging(Server& server, std::shared_ptr<ClientLogSink> sink);

} // namespace toold::daemon
