#include "daemon/mcp_client_methods.h"

#include "core/permission/permission_config.h"
#include "core/sources/mcp/mcp_client.h"
#include "daemon/server.h"
#include "protocol/tool_messages.h"

namespace toold::daemon {

void bindMcpClientMethods(Server& server, core::McpClient& client) {
  MethodTable& methods = server.methods();

  client.setStatusListener([&server](const core::McpServerStatus& status) { server.notify("mcp/status", status.toJson()); });

  methods.request("mcp/status", [&client](json&&, const RequestContext&, Reply reply) {
    json servers = json::array();
    for (const auto& status : client.status()) servers.push_back(status.toJson());
    reply(json{{"servers", std::move(servers)}});
  });

  methods.request("mcp/connect", [&client](json&& params, const RequestContext&, Reply reply) {
    protocol::ParamsReader reader(params, "");
    const std::string name = reader.requireString("name");
    std::optional<core::McpServerConfig> config;
    if (const auto given = params.find("server"); given != params.end()) {
      try {
        config = core::parseMcpServerConfig(*given, "server");
      } catch (const core::ConfigError& e) {
        throw InvalidParams(e.what());
      }
    }
    if (!client.connect(name, std::move(config)))
      throw InvalidParams("server: there is no MCP server \"" + name + "\" to start again; give its config");
    reply(json{{"name", name}, {"status", "pending"}});
  });

  methods.request("mcp/disconnect", [&client](json&& params, const RequestContext&, Reply reply) {
    protocol::ParamsReader reader(params, "");
    const std::string name = reader.requireString("name");
    reply(json{{"disconnected", client.disconnect(name)}});
  });
}

} // namespace toold::daemon
