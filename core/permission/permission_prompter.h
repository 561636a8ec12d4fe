// Asking the person behind the client. A client that declared the `permission` capability gets
// toold's own `permission/ask`; an MCP client that declared `elicitation` gets a form through
// `elicitation/create`; a client that declared neither is never asked (the unattended policy
// decides instead).
#pragma once

#include "core/base/cancellation.h"
#include "core/base/client_channel.h"

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

/// The person's reply, or why none could be had (the client answered with an error or nonsense).
using PromptAnswer = std::variant<PermissionReply, std::string>;

class PermissionPrompter {
public:
  virtual ~PermissionPrompter() = default;
  /// False when no one can be asked.
  virtual bool attended() const = 0;
  /// Sends `request` ({id, sessionID, agent, action, resources, save, metadata, source}). `answered`
  /// runs at most once; cancelling `cancellation` withdraws the question from the client.
  virtual void ask(const nlohmann::json& request, CancellationToken cancellation,
                   std::function<void(PromptAnswer)> answered) = 0;
};

/// The prompter that asks over the client channel, choosing the method by the client's capabilities.
std::shared_ptr<PermissionPrompter> makeClientPermissionPrompter(std::shared_ptr<ClientChannel> client);

/// Reads a `permission/ask` result `{reply: "once"|"always"|"reject", message?}`.
PromptAnswer parsePermissionReply(const nlohmann::json& result);
/// Reads an `elicitation/create` result `{action: "accept"|"decline"|"cancel", content?}`.
PromptAnswer parseElicitationReply(const nlohmann::json& result);
/// The `elicitation/create` params for `request`: a message and a form with the three choices.
nlohmann::json elicitationParams(const nlohmann::json& request);

} // namespace toold::core
