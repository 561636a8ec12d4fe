// PermissionV2: every tool asserts what it is about to do — an action over some resources — and
// the service decides from the rules (defaults, the config file, the agent's section, the
// snapshot's rules, then the person's saved approvals). What the rules leave open is asked: sent
// to the client and waited for, cancellably, with a timeout and reminders in the log; a client
// that cannot be asked gets the unattended policy instead.
#pragma once

#include "core/base/cancellation.h"
#include "core/base/location.h"
#include "core/permission/ask_route.h"
#include "core/permission/permission_ask.h"
#include "core/permission/permission_config.h"
#include "core/permission/permission_prompter.h"
#include "core/permission/permission_rule.h"

#include <boost/asio/io_context.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace toold::core {

enum class UnattendedPolicy { Deny, Allow };

struct PermissionOptions {
  /// What happens to an ask when the client cannot be asked.
  UnattendedPolicy unattended = UnattendedPolicy::Deny;
  /// How asks reach an answer: through the client, or by the unattended policy (ask_route.h).
  AskRoute asks = AskRoute::Auto;
  /// How long an ask may wait for the person; none: as long as the call lives.
  std::optional<std::chrono::milliseconds> timeout;
  /// How often the log repeats which asks are still waiting.
  std::chrono::milliseconds reminder = std::chrono::seconds(30);
};

/// Who asks: the call's identity and the rules its snapshot carried. The tool never supplies it.
struct PermissionCaller {
  std::string sessionID;
  std::string agent;
  std::string messageID;
  std::string callID;
  std::shared_ptr<const Ruleset> snapshotRules;
  CancellationToken cancellation;
  std::string tool; ///< the tool whose call asks, shown to the person
};

struct PermissionVerdict {
  enum class Kind {
    Granted,
    Failed,   ///< the call fails with `message` for the model (denied, corrected, unanswered)
    Declined, ///< the person declined: not a tool result (JSON-RPC -32001)
  };
  Kind kind = Kind::Granted;
  std::string message;
  /// For the client, not the model: something about the decision it should know (an "always"
  /// approval that holds only until toold exits because it could not be saved).
  std::string notice;
  /// Granted by the unattended policy: no person saw the ask.
  bool byPolicy = false;

  bool granted() const { return kind == Kind::Granted; }
};

class PermissionService {
public:
  PermissionService(boost::asio::io_context& io, const Location& location, PermissionConfig config,
                    PermissionOptions options, std::shared_ptr<PermissionPrompter> prompter);
  ~PermissionService();
  PermissionService(const PermissionService&) = delete;
  PermissionService& operator=(const PermissionService&) = delete;

  /// Decides `ask` for `caller`; `decided` runs exactly once, on any thread (at once when the
  /// rules decide). After the caller's cancellation it may still run, with a Failed verdict.
  void check(PermissionAsk ask, PermissionCaller caller, std::function<void(PermissionVerdict)> decided);

  /// Replaces the config's rules (config/reload); asks already decided stay decided.
  void setConfig(PermissionConfig config);

  /// The configured layers for `agent` (defaults, config, the agent's section), for catalogs.
  /// The pointers live as long as the service.
  std::vector<const Ruleset*> configuredLayers(std::string_view agent) const;

  /// The waiting asks (of `sessionID` only, when given), oldest first, as sent to the client.
  std::vector<nlohmann::json> pendingAsks(const std::optional<std::string>& sessionID) const;

  /// The person's saved approvals for this Location, oldest first.
  Ruleset savedApprovals() const;
  /// Forgets the saved approval {action, resource}; false when there was none. Throws
  /// std::runtime_error when the approvals file could not be written (the approval is gone
  /// until toold exits all the same).
  bool revokeApproval(const std::string& action, const std::string& resource);

  /// Declines every waiting ask; later asks are declined at once.
  void shutdown();

private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
};

} // namespace toold::core
