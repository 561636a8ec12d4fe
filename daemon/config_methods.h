// config/reload: reads toold.json (and .toold/tools/) again and applies it without a restart — the
// permission rules, the command tools of the `tools` section (scope `config`, replaced in one
// step) and the MCP servers (only those whose config changed are restarted). A file with an error
// changes nothing and is answered -32602 with the file, line and key.
#pragma once

#include <filesystem>
#include <optional>

namespace toold::core {
class McpClient;
class ToolService;
}

namespace toold::daemon {

class Server;

void bindConfigMethods(Server& server, core::ToolService& tools, core::McpClient& mcp, std::filesystem::path directory,
                       std::optional<std::filesystem::path> explicitFile);

} // namespace toold::daemon
