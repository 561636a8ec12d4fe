// Asking the person behind the client. A client that declared the `permission` capability gets
// toold's own `permission/ask`; an MCP client that declared `elicitation` gets a form through
// `elicitation/create`; a client that declared neither is never asked (the unattended policy
// decides instead). The ask route (core/permission/ask_route) may send asks to the unattended
// policy too: always, or once the client is seen answering forms with no person behind it.
#pragma once

#include "core/base/cancellation.h"
#include "core/base/client_channel.h"
#include "core/permission/ask_route.h"
#include "core/permission/permission_form.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <string>
#include <variant>

namespace toold::core {

enum class PermissionReplyKind { Once, Always, Reject };

struct PermissionReply {
  PermissionReplyKind kind = PermissionReplyKind::Reject;
  std::string message; ///< a reject's feedback for the model; empty: a plain decline
};

/// No person could answer: the client dismissed the form sooner than anyone could have read it.
/// Not a decline: the unattended policy decides the ask.
struct NoOneAnswered {
  std::string why; ///< for the model: what the client did
};

/// The person's reply, why none could be had (the client answered with an error or nonsense), or
/// that no person was there to answer.
using PromptAnswer = std::variant<PermissionReply, std::string, NoOneAnswered>;

class PermissionPrompter {
public:
  virtual ~PermissionPrompter() = default;
  /// False when no one can be asked.
  virtual bool attended() const = 0;
  /// Why no one can be asked, in words for the model (meaningful when attended() is false).
  virtual std::string whyUnattended() const { return "the client cannot answer permission requests"; }
  /// Sends `request` ({id, sessionID, agent, action, resources, save, metadata, source}). `answered`
  /// runs at most once; cancelling `cancellation` withdraws the question from the client.
  virtual void ask(const nlohmann::json& request, CancellationToken cancellation,
                   std::function<void(PromptAnswer)> answered) = 0;
};

/// The prompter that asks over the client channel, choosing the method by the client's capabilities
/// and the ask route.
std::shared_ptr<PermissionPrompter> makeClientPermissionPrompter(std::shared_ptr<ClientChannel> client,
                                                                 AskRoute route = AskRoute::Auto);

/// Reads a `permission/ask` result `{reply: "once"|"always"|"reject", message?}`.
PromptAnswer parsePermissionReply(const nlohmann::json& result);
/// Reads an `elicitation/create` result `{action: "accept"|"decline"|"cancel", content?}`. A
/// decision is read from the choice's constant, or its title ("Allow once"), in any case.
PromptAnswer parseElicitationReply(const nlohmann::json& result);

} // namespace toold::core
