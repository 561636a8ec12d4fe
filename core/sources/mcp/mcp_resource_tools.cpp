// The resource tools (opencode V1, Codex): the model lists what connected MCP servers offer as
// resources and reads one, asking `read` permission on its URI. Registered by McpClient while some
// connected server offers resources.
#include "core/sources/mcp/mcp_client.h"
#include "core/sources/mcp/mcp_result.h"

#include <atomic>

namespace toold::core {

namespace {

/// Lists `method`'s `key` of one server, or of every server offering resources, as JSON text.
ToolExecute listExecute(McpClient& client, std::string method, std::string key) {
  return [&client, method, key](json input, ToolContext context, ToolDone done) {
    std::vector<std::shared_ptr<McpServer>> servers;
    if (input.contains("server")) {
      auto server = client.resourceServer(input["server"].get<std::string>());
      if (!server)
        return done(ToolFailure{"No connected MCP server \"" + input["server"].get<std::string>() + "\" offers resources",
                                std::nullopt});
      servers.push_back(std::move(server));
    } else {
      servers = client.resourceServers();
    }
    if (servers.empty()) return done(ToolResult{std::nullopt, json("[]"), std::nullopt});
    struct Collect {
      std::mutex mutex;
      std::vector<json> perServer;
      std::vector<std::string> errors;
      std::atomic<std::size_t> left;
      ToolDone done;
    };
    auto collect = std::make_shared<Collect>();
    collect->perServer.resize(servers.size());
    collect->left = servers.size();
    collect->done = std::move(done);
    for (std::size_t i = 0; i < servers.size(); ++i) {
      json params = json::object();
      if (input.contains("cursor")) params["cursor"] = input["cursor"];
      const std::string name = servers[i]->name();
      servers[i]->request(method, std::move(params), context.cancellation,
                          [collect, i, name, key](std::optional<json> result, std::string error) {
                            {
                              std::lock_guard lock(collect->mutex);
                              if (!result) {
                                collect->errors.push_back("server \"" + name + "\": " + error);
                              } else {
                                json entries = json::array();
                                if (result->is_object() && result->contains(key) && (*result)[key].is_array())
                                  for (json entry : (*result)[key]) {
                                    if (!entry.is_object()) continue;
                                    entry["server"] = name;
                                    entries.push_back(std::move(entry));
                                  }
                                json page{{"server", name}, {key, std::move(entries)}};
                                if (result->is_object() && result->contains("nextCursor")) page["nextCursor"] = (*result)["nextCursor"];
                                collect->perServer[i] = std::move(page);
                              }
                            }
                            if (--collect->left > 0) return;
                            json all = json::array();
                            for (auto& page : collect->perServer)
                              if (!page.is_null()) all.push_back(std::move(page));
                            if (all.empty()) {
                              std::string message;
                              for (const auto& text : collect->errors) message += (message.empty() ? "" : "; ") + text;
                              return collect->done(ToolFailure{message, std::nullopt});
                            }
                            std::string text = all.dump(2);
                            for (const auto& problem : collect->errors) text += "\n(" + problem + ")";
                            collect->done(ToolResult{std::nullopt, json(text), std::nullopt});
                          });
    }
  };
}

json listSchema() {
  return json{{"type", "object"},
              {"properties",
               {{"server", {{"type", "string"}, {"description", "Only this MCP server (default: every server with resources)"}}},
                {"cursor", {{"type", "string"}, {"description", "The nextCursor of an earlier answer, with its server"}}}}},
              {"additionalProperties", false}};
}

} // namespace

std::vector<std::pair<std::string, Tool>> makeMcpResourceTools(McpClient& client) {
  std::vector<std::pair<std::string, Tool>> tools;

  Tool list;
  list.title = "List MCP resources";
  list.description = "Lists the resources the connected MCP servers offer (uri, name, mimeType, description), by server.";
  list.inputSchema = listSchema();
  list.threading = ToolThreading::Inline;
  list.annotations = json{{"readOnlyHint", true}};
  list.execute = listExecute(client, "resources/list", "resources");
  tools.emplace_back("list_mcp_resources", std::move(list));

  Tool templates;
  templates.title = "List MCP resource templates";
  templates.description = "Lists the resource templates (URI patterns) the connected MCP servers offer, by server.";
  templates.inputSchema = listSchema();
  templates.threading = ToolThreading::Inline;
  templates.annotations = json{{"readOnlyHint", true}};
  templates.execute = listExecute(client, "resources/templates/list", "resourceTemplates");
  tools.emplace_back("list_mcp_resource_templates", std::move(templates));

  Tool read;
  read.title = "Read an MCP resource";
  read.description = "Reads one resource of an MCP server by its URI (as list_mcp_resources shows it).";
  read.inputSchema = json{{"type", "object"},
                          {"properties",
                           {{"server", {{"type", "string"}, {"description", "The MCP server's name"}}},
                            {"uri", {{"type", "string"}, {"description", "The resource's URI"}}}}},
                          {"required", {"server", "uri"}},
                          {"additionalProperties", false}};
  read.threading = ToolThreading::Inline;
  read.permission = "read";
  read.annotations = json{{"readOnlyHint", true}};
  read.execute = [&client](json input, ToolContext context, ToolDone done) {
    const std::string serverName = input["server"].get<std::string>();
    const std::string uri = input["uri"].get<std::string>();
    auto server = client.resourceServer(serverName);
    if (!server) return done(ToolFailure{"No connected MCP server \"" + serverName + "\" offers resources", std::nullopt});
    auto assertPermission = context.assertPermission;
    PermissionAsk ask{"read", {uri}, {uri}, json{{"server", serverName}, {"uri", uri}}};
    assertPermission(std::move(ask), [server, uri, context = std::move(context), done](std::optional<ToolCompletion> refusal) mutable {
      if (refusal) return done(std::move(*refusal));
      server->request("resources/read", json{{"uri", uri}}, context.cancellation,
                      [done, uri](std::optional<json> result, std::string error) {
                        if (!result) return done(ToolFailure{"Reading " + uri + " failed: " + error, std::nullopt});
                        json items = json::array();
                        if (result->is_object() && result->contains("contents") && (*result)["contents"].is_array())
                          for (const json& entry : (*result)["contents"]) {
                            json item = mcpResourceToItem(entry);
                            if (!item.is_null()) items.push_back(std::move(item));
                          }
                        if (items.empty()) items.push_back(json{{"type", "text"}, {"text", "(the resource is empty)"}});
                        done(ToolResult{std::nullopt, std::move(items), std::nullopt});
                      });
    });
  };
  tools.emplace_back("read_mcp_resource", std::move(read));
  return tools;
}

} // namespace toold::core
