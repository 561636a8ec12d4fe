#include "core/permission/permission_prompter.h"

#include "protocol/bounded_json.h"

namespace toold::core {

using json = nlohmann::json;

namespace {

enum class Route { Native, Elicitation, None };

bool declared(const json& capabilities, const char* name) {
  auto it = capabilities.find(name);
  return it != capabilities.end() && it->is_object();
}

// Elicitation without `form` or `url` means form mode (MCP 2025-06-18); a client that lists only
// `url` cannot show a form.
bool formElicitation(const json& capabilities) {
  if (!declared(capabilities, "elicitation")) return false;
  const json& elicitation = capabilities["elicitation"];
  return elicitation.contains("form") || !elicitation.contains("url");
}

Route routeFor(const json& capabilities) {
  if (!capabilities.is_object()) return Route::None;
  if (declared(capabilities, "permission")) return Route::Native;
  if (formElicitation(capabilities)) return Route::Elicitation;
  return Route::None;
}

std::string joined(const json& strings) {
  std::string text;
  for (const auto& s : strings) text += (text.empty() ? "" : ", ") + s.get<std::string>();
  return text;
}

std::optional<PermissionReplyKind> replyKind(const json& value) {
  if (value == "once") return PermissionReplyKind::Once;
  if (value == "always") return PermissionReplyKind::Always;
  if (value == "reject") return PermissionReplyKind::Reject;
  return std::nullopt;
}

class ClientPermissionPrompter final : public PermissionPrompter {
public:
  explicit ClientPermissionPrompter(std::shared_ptr<ClientChannel> client) : client_(std::move(client)) {}

  bool attended() const override { return routeFor(client_->capabilities()) != Route::None; }

  void ask(const json& request, CancellationToken cancellation, std::function<void(PromptAnswer)> answered) override {
    const Route route = routeFor(client_->capabilities());
    const bool native = route == Route::Native;
    client_->request(native ? "permission/ask" : "elicitation/create", native ? request : elicitationParams(request),
                     std::move(cancellation), [native, answered = std::move(answered)](ClientReply reply) {
                       if (reply.error) return answered("the client answered with an error: " + reply.error->message);
                       const json result = reply.result.value_or(json());
                       answered(native ? parsePermissionReply(result) : parseElicitationReply(result));
                     });
  }

private:
  std::shared_ptr<ClientChannel> client_;
};

} // namespace

std::shared_ptr<PermissionPrompter> makeClientPermissionPrompter(std::shared_ptr<ClientChannel> client) {
  return std::make_shared<ClientPermissionPrompter>(std::move(client));
}

PromptAnswer parsePermissionReply(const json& result) {
  if (!result.is_object() || !result.contains("reply"))
    return std::string("the client's answer has no \"reply\" (expected \"once\", \"always\" or \"reject\")");
  auto kind = replyKind(result["reply"]);
  if (!kind)
    return "the client's reply " + protocol::dumpBounded(result["reply"], protocol::kLogRender) +
           " is not \"once\", \"always\" or \"reject\"";
  PermissionReply reply{*kind, {}};
  if (auto it = result.find("message"); it != result.end() && it->is_string()) reply.message = *it;
  return reply;
}

PromptAnswer parseElicitationReply(const json& result) {
  if (!result.is_object() || !result.contains("action") || !result["action"].is_string())
    return std::string("the client's elicitation answer has no \"action\"");
  const std::string action = result["action"];
  // Declining or dismissing the form is a plain decline: nothing was allowed.
  if (action == "decline" || action == "cancel") return PermissionReply{PermissionReplyKind::Reject, {}};
  if (action != "accept") return "the client's elicitation action \"" + action + "\" is not accept, decline or cancel";
  const json content = result.value("content", json::object());
  auto kind = content.is_object() ? replyKind(content.value("decision", json())) : std::nullopt;
  if (!kind) return std::string("the accepted elicitation has no valid \"decision\" (once, always or reject)");
  PermissionReply reply{*kind, {}};
  if (auto it = content.find("message"); it != content.end() && it->is_string()) reply.message = *it;
  return reply;
}

json elicitationParams(const json& request) {
  std::string message = "Allow " + request.value("action", std::string("?")) + " on " +
                        joined(request.value("resources", json::array())) + "?";
  const json& source = request.value("source", json::object());
  if (source.contains("callID"))
    message += " (call " + source.value("callID", std::string()) + ", session " +
               request.value("sessionID", std::string()) + ")";
  json decision{{"type", "string"},
                {"title", "Decision"},
                {"enum", {"once", "always", "reject"}},
                {"enumNames", {"Allow once", "Allow always", "Reject"}}};
  if (request.contains("save") && !request["save"].empty())
    decision["description"] = "\"Allow always\" saves: " + joined(request["save"]);
  json feedback{{"type", "string"}, {"title", "Feedback for the model (when rejecting)"}};
  return json{{"message", std::move(message)},
              {"requestedSchema",
               {{"type", "object"},
                {"properties", {{"decision", std::move(decision)}, {"message", std::move(feedback)}}},
                {"required", {"decision"}}}}};
}

} // namespace toold::core
