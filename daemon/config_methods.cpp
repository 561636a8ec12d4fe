#include "daemon/config_methods.h"

#include "core/permission/config_restart.h"
#include "core/permission/permission_config.h"
#include "core/sources/config_tools.h"
#include "core/sources/mcp/mcp_client.h"
#include "core/tool_service.h"
#include "core/tools/tool_name.h"
#include "daemon/server.h"

#include <spdlog/spdlog.h>

namespace toold::daemon {

void bindConfigMethods(Server& server, core::ToolService& tools, core::McpClient& mcp, std::filesystem::path directory,
                       std::optional<std::filesystem::path> explicitFile, core::LspSettings lsp,
                       core::FormatterSettings formatter) {
  server.methods().request("config/reload", [&tools, &mcp, directory, explicitFile, lsp, formatter](json&&, const RequestContext&,
                                                                                                  Reply reply) {
    // Everything is read and checked before anything is applied: never half a config.
    core::PermissionConfig permissions;
    core::McpConfig servers;
    protocol::RegisterParams configTools;
    core::LspSettings nextLsp;
    core::FormatterSettings nextFormatter;
    try {
      permissions = core::loadPermissionConfig(directory, explicitFile);
      servers = core::loadMcpConfig(directory, explicitFile);
      configTools = core::loadConfigTools(directory, explicitFile);
      nextLsp = core::loadLspConfig(directory, explicitFile);
      nextFormatter = core::loadFormatterConfig(directory, explicitFile);
    } catch (const core::ConfigError& e) {
      throw InvalidParams(e.what());
    }
    // A key that only a restart applies refuses the reload whole: success with the old value kept
    // would tell the user the change holds.
    auto keys = core::keysNeedingRestart(*tools.config(), permissions);
    // The language servers and formatters are set up when toold starts.
    if (nextLsp != lsp) keys.emplace_back("lsp");
    if (nextFormatter != formatter) keys.emplace_back("formatter");
    if (!keys.empty()) throw InvalidParams(core::restartRefusal(keys));
    if (configTools.tools.empty()) {
      tools.unregister(std::string(core::kConfigToolScope));
    } else {
      try {
        tools.registerTools(configTools, true);
      } catch (const core::RegistrationError& e) {
        throw InvalidParams(std::string("tools: ") + e.what());
      }
    }
    tools.applyConfig(std::move(permissions));
    mcp.configure(servers);
    spdlog::info("config reloaded: {} config tool(s), {} MCP server(s)", configTools.tools.size(), servers.servers.size());
    reply(json{{"tools", configTools.tools.size()}, {"mcpServers", servers.servers.size()}});
  });
}

} // namespace toold::daemon
