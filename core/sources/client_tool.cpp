#include "core/sources/client_tool.h"

#include "core/tools/permission_guard.h"

namespace toold::core {

ToolCompletion parseToolResult(const json& value, std::string_view source) {
  if (value.is_string()) return ToolResult{std::nullopt, value, std::nullopt};
  if (!value.is_object())
    return ToolDefect{std::string(source) + " returned " + std::string(value.type_name()) +
                      "; expected an object {output?, content?, metadata?} or a string"};
  for (const auto& [key, member] : value.items())
    if (key != "output" && key != "content" && key != "metadata")
      return ToolDefect{std::string(source) + " returned the unknown key \"" + key +
                        "\"; expected only output, content and metadata"};
  ToolResult result;
  if (auto it = value.find("output"); it != value.end()) result.output = *it;
  if (auto it = value.find("content"); it != value.end() && !it->is_null()) result.content = *it;
  if (auto it = value.find("metadata"); it != value.end() && !it->is_null()) result.metadata = *it;
  return result;
}

void executeOnClient(ClientChannel& client, const std::string& name, json input, const ToolContext& context,
                     ToolDone done) {
  json params{{"sessionID", context.sessionID}, {"agent", context.agent}, {"messageID", context.messageID},
              {"callID", context.callID},       {"name", name},           {"input", std::move(input)}};
  client.request("tool/execute", std::move(params), context.cancellation,
                 [done = std::move(done), name](ClientReply reply) {
                   if (reply.error) return done(ToolFailure{reply.error->message, std::nullopt});
                   done(parseToolResult(reply.result.value_or(json()), "the client's tool \"" + name + "\""));
                 });
}

ToolExecute makeClientToolExecute(std::shared_ptr<ClientChannel> client, std::string name, std::string ownAction) {
  return guardedByPermissionNamed(std::move(ownAction), std::move(name),
                                  [client = std::move(client)](const std::string& toolName, json input,
                                                               ToolContext context, ToolDone done) {
                                    executeOnClient(*client, toolName, std::move(input), context, std::move(done));
                                  });
}

} // namespace toold::core
