#include "core/permission/permission_prompter.h"

#include "protocol/bounded_json.h"

#include <algorithm>
#include <cctype>
#include <chrono>

namespace toold::core {

using json = nlohmann::json;

namespace {

using Clock = std::chrono::steady_clock;

// Lower case, without surrounding blanks: hosts echo a choice's constant, or sometimes its title.
std::string normalized(const std::string& text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return {};
  std::string out = text.substr(first, text.find_last_not_of(" \t") - first + 1);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::optional<PermissionReplyKind> replyKind(const json& value) {
  if (value == "once") return PermissionReplyKind::Once;
  if (value == "always") return PermissionReplyKind::Always;
  if (value == "reject") return PermissionReplyKind::Reject;
  return std::nullopt;
}

// A form's decision: the constant, or what a host may send instead of it (the title, another
// case, a one-element array from a host that took the choice for a multi-select).
std::optional<PermissionReplyKind> decisionKind(const json& value) {
  if (value.is_array() && value.size() == 1) return decisionKind(value[0]);
  if (!value.is_string()) return std::nullopt;
  const std::string text = normalized(value.get<std::string>());
  if (text == "once" || text == "allow once") return PermissionReplyKind::Once;
  if (text == "always" || text.starts_with("allow always")) return PermissionReplyKind::Always;
  if (text == "reject") return PermissionReplyKind::Reject;
  return std::nullopt;
}

class ClientPermissionPrompter final : public PermissionPrompter {
public:
  ClientPermissionPrompter(std::shared_ptr<ClientChannel> client, AskRoute route)
      : client_(std::move(client)), router_(std::make_shared<AskRouter>(route)) {}

  bool attended() const override { return router_->decide(client_->capabilities()).channel != AskChannel::Unattended; }

  std::string whyUnattended() const override { return router_->decide(client_->capabilities()).why; }

  void ask(const json& request, CancellationToken cancellation, std::function<void(PromptAnswer)> answered) override {
    const AskChannel channel = router_->decide(client_->capabilities()).channel;
    if (channel == AskChannel::Unattended) return answered(NoOneAnswered{whyUnattended()});
    const bool native = channel == AskChannel::Native;
    const auto sent = Clock::now();
    client_->request(native ? "permission/ask" : "elicitation/create", native ? request : elicitationParams(request),
                     std::move(cancellation),
                     [native, sent, router = router_, answered = std::move(answered)](ClientReply reply) {
                       // A form the client cannot show is no one's answer either; toold's own
                       // exit (-32800) is not the client's doing.
                       if (reply.error && !native && reply.error->code != protocol::ErrorCode::RequestCancelled)
                         if (auto why = router->judgeFormError(reply.error->message)) return answered(NoOneAnswered{*why});
                       if (reply.error) return answered("the client answered with an error: " + reply.error->message);
                       const json result = reply.result.value_or(json());
                       if (native) return answered(parsePermissionReply(result));
                       const auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - sent);
                       if (auto why = router->judgeFormAnswer(result, elapsed)) return answered(NoOneAnswered{*why});
                       answered(parseElicitationReply(result));
                     });
  }

private:
  std::shared_ptr<ClientChannel> client_;
  std::shared_ptr<AskRouter> router_; // shared with answers still on their way
};

} // namespace

std::shared_ptr<PermissionPrompter> makeClientPermissionPrompter(std::shared_ptr<ClientChannel> client, AskRoute route) {
  return std::make_shared<ClientPermissionPrompter>(std::move(client), route);
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
  auto kind = content.is_object() ? decisionKind(content.value("decision", json())) : std::nullopt;
  if (!kind) return std::string("the accepted elicitation has no valid \"decision\" (once, always or reject)");
  PermissionReply reply{*kind, {}};
  if (auto it = content.find("message"); it != content.end() && it->is_string()) reply.message = *it;
  return reply;
}

} // namespace toold::core
