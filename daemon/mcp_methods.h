// The MCP face: `tools/list` and `tools/call` answered from an implicit snapshot of a default
// session, so that any MCP client can use toold as a tool server.
#pragma once

#include "core/output/output_bounding.h"

#include <cstddef>
#include <memory>

namespace toold::core {
class ToolService;
}

namespace toold::daemon {

class Server;

/// How many tools one `tools/list` page holds.
inline constexpr std::size_t kToolsListPageSize = 100;

/// `budget`: what a tool's answer may hold on this face (output_budgets.h).
void bindMcpMethods(Server& server, core::ToolService& tools, core::BoundingLimits budget);

class ClientLogSink;
/// `logging/setLevel {level}`: from then on toold's log lines at or above it reach the client as
/// `notifications/message`.
void bindMcpLogging(Server& server, std::shared_ptr<ClientLogSink> sink);

} // namespace toold::daemon
