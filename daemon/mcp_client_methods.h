// Binds the MCP client's methods — mcp/status, mcp/connect, mcp/disconnect — and sends the
// `mcp/status` notification whenever a server's status changes.
#pragma once

namespace toold::core {
class McpClient;
}

namespace toold::daemon {

class Server;

void bindMcpClientMethods(Server& server, core::McpClient& client);

} // namespace toold::daemon
