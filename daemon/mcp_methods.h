// The MCP face: `tools/list` and `tools/call` answered from an implicit snapshot of a default
// session, so that any MCP client can use toold as a tool server.
#pragma once

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

/// `foregroundLimit`: how long a call may run before a long command answers from the background
/// (ToolContext::foregroundLimit); hosts give up on a call after a fixed time.
void bindMcpMethods(Server& server, core::ToolService& tools,
                    std::optional<std::chrono::milliseconds> foregroundLimit = std::nullopt);

class ClientLogSink;
/// `logging/setLevel {level}`: from then on toold's log lines at or above it reach the client as
/// `notifications/message`.
void bindMcpLogging(Server& server, std::shared_ptr<ClientLogSink> sink);

} // namespace toold::daemon
