#include "core/permission/permission_service.h"

#include "core/permission/approval_store.h"
#include "core/output/output_store.h"
#include "core/permission/permission_defaults.h"
#include "core/permission/permission_evaluation.h"
#include "core/permission/permission_form.h"

#include <boost/asio/bind_executor.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <map>
#include <mutex>

namespace toold::core {

namespace asio = boost::asio;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;
using Kind = PermissionVerdict::Kind;

namespace {

constexpr std::size_t kResourcesNamed = 3;
constexpr std::string_view kDeclinedMessage = "The user rejected permission to use this specific tool call.";
constexpr std::string_view kCorrectedMessage =
    "The user rejected permission to use this specific tool call with the following feedback: ";

// `bash on "git push", "rm x"` — what the model and the log are told the ask was about.
std::string describe(const PermissionAsk& ask) {
  std::string text = ask.action + " on ";
  const auto& resources = ask.resources.empty() ? std::vector<std::string>{"*"} : ask.resources;
  for (std::size_t i = 0; i < resources.size() && i < kResourcesNamed; ++i)
    text += (i ? ", \"" : "\"") + resources[i] + "\"";
  if (resources.size() > kResourcesNamed) text += " and " + std::to_string(resources.size() - kResourcesNamed) + " more";
  return text;
}

std::string describe(const PermissionRule& rule) {
  return json{{"action", rule.action}, {"resource", rule.resource}, {"effect", permissionEffectName(rule.effect)}}
             .dump() +
         " (" + rule.source + ")";
}

std::string seconds(std::chrono::milliseconds duration) {
  const auto ms = duration.count();
  return ms % 1000 == 0 ? std::to_string(ms / 1000) + " s" : std::to_string(ms) + " ms";
}

std::string joinPatterns(const std::vector<std::string>& patterns) {
  std::string text;
  for (const auto& pattern : patterns) text += (text.empty() ? "\"" : ", \"") + pattern + "\"";
  return text;
}

PermissionVerdict granted(std::string notice = {}) { return {Kind::Granted, {}, std::move(notice)}; }
PermissionVerdict failed(std::string message) { return {Kind::Failed, std::move(message), {}}; }
PermissionVerdict declined(std::string message) { return {Kind::Declined, std::move(message), {}}; }

std::string notGranted(const PermissionAsk& ask, const std::string& why) {
  return "Permission required and not granted: " + describe(ask) + " needs approval, and " + why +
         ". Do not retry this call; continue without it or tell the user what you need.";
}

// A config rule that would allow `ask`, as the user would write it in toold.json.
std::string allowingRule(const PermissionAsk& ask) {
  if (ask.save.empty() || ask.save == std::vector<std::string>{"*"})
    return json{{"permission", {{ask.action, "allow"}}}}.dump();
  return json{{"permission", {{ask.action, {{ask.save.front(), "allow"}}}}}}.dump();
}

// The unattended policy's refusal, told as it happened: no one could answer, what decided, and
// how the user can allow such a call; never an invitation to try the same call again.
std::string deniedUnattended(const PermissionAsk& ask, const std::string& why) {
  if (ask.grantedOnlyByName)
    return "Permission required and not granted: running this command outside the OS sandbox needs approval, and "
           "no one could answer the permission request (" + why +
           "); toold's unattended policy never grants leaving the sandbox. The user can allow this command with a "
           "rule for `sandbox` in toold.json (" + allowingRule(ask) + ").";
  const std::string rule = ask.literalOnly ? std::string("a permission rule in toold.json")
                                           : "a permission rule in toold.json (for example " + allowingRule(ask) + ")";
  return "Permission required and not granted: " + describe(ask) +
         " needs approval, and no one could answer the permission request (" + why +
         "), so toold's unattended policy denied it. Do not retry this call: it would be refused the same way. "
         "The user can allow such calls with " + rule +
         " or by starting toold with --unattended allow; continue without it or tell the user what you need.";
}

} // namespace

struct PermissionService::Impl : std::enable_shared_from_this<Impl> {
  struct Pending {
    std::string id;
    std::uint64_t number = 0; ///< the order asks were made in
    PermissionAsk ask;
    PermissionCaller caller;
    std::function<void(PermissionVerdict)> decided;
    CancellationSource withdraw; ///< withdraws the question from the client
    CancellationRegistration onCallCancelled;
    std::shared_ptr<asio::steady_timer> timer; ///< touched only on the strand
    Clock::time_point askedAt = Clock::now();
  };

  asio::strand<asio::io_context::executor_type> strand;
  PermissionOptions options;
  const Ruleset defaults;
  mutable std::mutex configMutex; // guards config and retired (taken after `mutex`, never before it)
  std::shared_ptr<const PermissionConfig> config;
  /// Configs replaced by config/reload: kept, since a catalog may still hold their rules' addresses.
  std::vector<std::shared_ptr<const PermissionConfig>> retired;
  std::shared_ptr<PermissionPrompter> prompter;

  mutable std::mutex mutex; // guards everything below
  ApprovalStore approvals;
  std::map<std::string, std::shared_ptr<Pending>> pending;
  std::uint64_t nextId = 1;
  bool stopped = false;

  Impl(asio::io_context& ioContext, const Location& location, PermissionConfig permissionConfig,
       PermissionOptions permissionOptions, std::shared_ptr<PermissionPrompter> permissionPrompter)
      : strand(asio::make_strand(ioContext)), options(permissionOptions),
        defaults(defaultPermissionRules(OutputStore(location.dataDir).folder())), config(std::make_shared<const PermissionConfig>(std::move(permissionConfig))),
        prompter(std::move(permissionPrompter)), approvals(location.dataDir, location.directory) {}

  std::vector<const Ruleset*> configuredLayers(std::string_view agent) const {
    std::lock_guard lock(configMutex);
    // Room for all four (the defaults, the config's, the agent's, a snapshot's) made at once: an
    // ask per call grew this twice.
    std::vector<const Ruleset*> layers;
    layers.reserve(4);
    layers.push_back(&defaults);
    layers.push_back(&config->rules);
    if (auto it = config->agents.find(agent); it != config->agents.end()) layers.push_back(&it->second);
    return layers;
  }

  std::vector<const Ruleset*> layersFor(const PermissionCaller& caller) const {
    auto layers = configuredLayers(caller.agent);
    if (caller.snapshotRules) layers.push_back(caller.snapshotRules.get());
    return layers;
  }

  void check(PermissionAsk ask, PermissionCaller caller, std::function<void(PermissionVerdict)> decided) {
    AskJudgement judgement;
    {
      std::lock_guard lock(mutex);
      judgement = judgeAsk(ask, layersFor(caller), approvals.rules());
    }
    switch (judgement.effect) {
    case PermissionEffect::Allow:
      return decided(granted());
    case PermissionEffect::Deny:
      spdlog::info("permission: {} denied for call {} by {}", describe(ask), caller.callID, describe(*judgement.rule));
      return decided(failed("Permission denied: the rule " + describe(*judgement.rule) + " forbids " + ask.action +
                            " on \"" + judgement.resource + "\". Do not retry this call."));
    case PermissionEffect::Ask:
      break;
    }
    if (!prompter->attended()) return decided(decideUnattended(ask, caller, prompter->whyUnattended()));
    askClient(std::move(ask), std::move(caller), std::move(decided));
  }

  // The verdict of the unattended policy for an ask no one can answer (`why`, for the model).
  PermissionVerdict decideUnattended(const PermissionAsk& ask, const PermissionCaller& caller, const std::string& why) {
    // The unattended policy answers for the asks a person would see; the sandbox is the boundary
    // that holds when no one watches, so leaving it is never granted by the policy.
    if (options.unattended == UnattendedPolicy::Allow && !ask.grantedOnlyByName) {
      spdlog::info("permission: {} for call {} allowed by the unattended policy ({})", describe(ask), caller.callID, why);
      PermissionVerdict verdict = granted();
      verdict.byPolicy = true;
      return verdict;
    }
    spdlog::info("permission: {} for call {} denied by the unattended policy ({})", describe(ask), caller.callID, why);
    return failed(deniedUnattended(ask, why));
  }

  void askClient(PermissionAsk ask, PermissionCaller caller, std::function<void(PermissionVerdict)> decided) {
    auto entry = std::make_shared<Pending>();
    entry->ask = std::move(ask);
    entry->caller = std::move(caller);
    entry->decided = std::move(decided);
    {
      std::lock_guard lock(mutex);
      if (!stopped) {
        entry->number = nextId++;
        entry->id = "per_" + std::to_string(entry->number);
        pending.emplace(entry->id, entry);
      }
    }
    if (entry->id.empty()) return entry->decided(declined("toold is exiting"));
    spdlog::info("permission {}: asking about {} for call {} (session {})", entry->id, describe(entry->ask),
                 entry->caller.callID, entry->caller.sessionID);
    std::weak_ptr<Impl> weak = weak_from_this();
    const std::string id = entry->id;
    auto onCancelled = entry->caller.cancellation.onCancel([weak, id] {
      if (auto self = weak.lock()) self->settle(id, failed("The call was cancelled while waiting for permission."));
    });
    {
      // Under the lock, as settle() takes it back under the lock: the cancellation may already
      // be settling this ask on another thread.
      std::lock_guard lock(mutex);
      if (!pending.contains(id)) return; // the call was cancelled already: nothing to ask
      entry->onCallCancelled = std::move(onCancelled);
    }
    startTimer(entry);
    prompter->ask(requestJson(*entry), entry->withdraw.token(), [weak, id](PromptAnswer answer) {
      if (auto self = weak.lock()) self->answered(id, std::move(answer));
    });
  }

  static json requestJson(const Pending& entry) {
    const auto& ask = entry.ask;
    json request{{"id", entry.id},
                {"sessionID", entry.caller.sessionID},
                {"agent", entry.caller.agent},
                {"tool", entry.caller.tool},
                {"action", ask.action},
                {"resources", ask.resources.empty() ? std::vector<std::string>{"*"} : ask.resources},
                {"save", ask.save},
                {"metadata", ask.metadata.is_object() ? ask.metadata : json::object()},
                {"source", {{"type", "tool"}, {"messageID", entry.caller.messageID}, {"callID", entry.caller.callID}}}};
    // Only on fail-closed asks, whose "always" saves the exact text (see PermissionAsk::literalOnly).
    if (ask.literalOnly) request["literal"] = true;
    // What "always" will grant, in words the person can weigh before choosing it.
    request["always"] = alwaysGrants(request);
    return request;
  }

  // One timer per waiting ask, on the strand (Asio timers are not thread-safe): it wakes for the
  // next reminder or the deadline, whichever is first.
  void startTimer(const std::shared_ptr<Pending>& entry) {
    asio::post(strand, [weak = weak_from_this(), entry] {
      auto self = weak.lock();
      if (!self || !self->find(entry->id)) return; // settled before its timer started
      entry->timer = std::make_shared<asio::steady_timer>(self->strand);
      self->armTimer(entry->id, entry->timer, entry->askedAt);
    });
  }

  void armTimer(const std::string& id, const std::shared_ptr<asio::steady_timer>& timer, Clock::time_point askedAt) {
    const auto now = Clock::now();
    auto wake = now + options.reminder;
    if (options.timeout) wake = std::min(wake, askedAt + *options.timeout);
    timer->expires_at(wake);
    timer->async_wait([weak = weak_from_this(), id, timer, askedAt](const boost::system::error_code& ec) {
      auto self = weak.lock();
      if (ec || !self) return;
      self->timerFired(id, timer, askedAt);
    });
  }

  void timerFired(const std::string& id, const std::shared_ptr<asio::steady_timer>& timer, Clock::time_point askedAt) {
    std::shared_ptr<Pending> entry;
    {
      std::lock_guard lock(mutex);
      if (auto it = pending.find(id); it != pending.end()) entry = it->second;
    }
    if (!entry) return;
    const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - askedAt);
    if (options.timeout && waited >= *options.timeout) {
      spdlog::warn("permission {}: no answer after {}; the call is refused", id, seconds(*options.timeout));
      return settle(id, failed(notGranted(entry->ask, "no answer came within " + seconds(*options.timeout))));
    }
    spdlog::warn("permission {}: still waiting for the client's answer after {} ({} for call {}, session {})", id,
                 seconds(waited), describe(entry->ask), entry->caller.callID, entry->caller.sessionID);
    armTimer(id, timer, askedAt);
  }

  void answered(const std::string& id, PromptAnswer answer) {
    if (auto* noOne = std::get_if<NoOneAnswered>(&answer)) {
      auto entry = find(id);
      if (!entry) return;
      return settle(id, decideUnattended(entry->ask, entry->caller, noOne->why), "no one could answer");
    }
    if (auto* problem = std::get_if<std::string>(&answer)) {
      spdlog::warn("permission {}: {}", id, *problem);
      auto entry = find(id);
      if (!entry) return;
      return settle(id, failed(notGranted(entry->ask, "it could not be asked (" + *problem + ")")));
    }
    const auto& reply = std::get<PermissionReply>(answer);
    switch (reply.kind) {
    case PermissionReplyKind::Once:
      return settle(id, granted(), "allowed once");
    case PermissionReplyKind::Always:
      return approveAlways(id);
    case PermissionReplyKind::Reject:
      return reject(id, reply.message);
    }
  }

  std::shared_ptr<Pending> find(const std::string& id) const {
    std::lock_guard lock(mutex);
    auto it = pending.find(id);
    return it == pending.end() ? nullptr : it->second;
  }

  // Saves the ask's `save` patterns as allow rules, resolves it, then every other waiting ask
  // (of any session) that the new rules now allow.
  void approveAlways(const std::string& id) {
    std::vector<std::string> nowAllowed;
    std::string notice;
    {
      std::lock_guard lock(mutex);
      auto it = pending.find(id);
      if (it == pending.end()) return;
      Ruleset saved;
      for (const auto& pattern : it->second->ask.save)
        saved.push_back({it->second->ask.action, pattern, PermissionEffect::Allow, {}, it->second->ask.literalOnly});
      if (auto error = approvals.add(saved); !error.empty()) {
        spdlog::error("permission {}: the approval applies until toold exits but could not be saved: {}", id, error);
        // A full disk must not turn "always" into "until restart" behind the person's back.
        notice = "The \"always\" approval of " + it->second->ask.action + " for " + joinPatterns(it->second->ask.save) +
                 " was not saved (" + error + "); it applies only until toold exits.";
      }
      for (const auto& [otherId, other] : pending)
        if (otherId != id &&
            judgeAsk(other->ask, layersFor(other->caller), approvals.rules()).effect == PermissionEffect::Allow)
          nowAllowed.push_back(otherId);
    }
    settle(id, granted(notice), "allowed always");
    for (const auto& other : nowAllowed) settle(other, granted(notice), "allowed by an approval given for " + id);
  }

  // A reject fails this ask (with the person's feedback, or as a plain decline), and declines
  // every other waiting ask of the same session: the person has stopped that turn.
  void reject(const std::string& id, const std::string& message) {
    std::vector<std::string> sameSession;
    {
      std::lock_guard lock(mutex);
      auto it = pending.find(id);
      if (it == pending.end()) return;
      for (const auto& [otherId, other] : pending)
        if (otherId != id && other->caller.sessionID == it->second->caller.sessionID) sameSession.push_back(otherId);
    }
    settle(id, message.empty() ? declined(std::string(kDeclinedMessage))
                               : failed(std::string(kCorrectedMessage) + message),
           "rejected");
    for (const auto& other : sameSession)
      settle(other, declined(std::string(kDeclinedMessage)), "declined with " + id);
  }

  // Ends one waiting ask: exactly once, whoever gets here first (the answer, a cascade, the
  // deadline, the call's cancellation, shutdown).
  void settle(const std::string& id, PermissionVerdict verdict, std::string_view how = {}) {
    std::shared_ptr<Pending> entry;
    CancellationRegistration onCancelled;
    {
      std::lock_guard lock(mutex);
      auto it = pending.find(id);
      if (it == pending.end()) return;
      entry = std::move(it->second);
      pending.erase(it);
      onCancelled = std::move(entry->onCallCancelled);
    }
    if (!how.empty()) spdlog::info("permission {}: {}", id, how);
    onCancelled.reset();
    entry->withdraw.cancel("answered");
    asio::post(strand, [entry] {
      if (entry->timer) entry->timer->cancel();
    });
    entry->decided(std::move(verdict));
  }

  void shutdown() {
    std::vector<std::string> ids;
    {
      std::lock_guard lock(mutex);
      stopped = true;
      for (const auto& [id, entry] : pending) ids.push_back(id);
    }
    for (const auto& id : ids) settle(id, declined("toold is exiting"));
  }
};

PermissionService::PermissionService(asio::io_context& io, const Location& location, PermissionConfig config,
                                     PermissionOptions options, std::shared_ptr<PermissionPrompter> prompter)
    : impl_(std::make_shared<Impl>(io, location, std::move(config), options, std::move(prompter))) {}

PermissionService::~PermissionService() { impl_->shutdown(); }

void PermissionService::check(PermissionAsk ask, PermissionCaller caller,
                              std::function<void(PermissionVerdict)> decided) {
  impl_->check(std::move(ask), std::move(caller), std::move(decided));
}

void PermissionService::setConfig(PermissionConfig config) {
  auto replacement = std::make_shared<const PermissionConfig>(std::move(config));
  std::lock_guard lock(impl_->configMutex);
  impl_->retired.push_back(std::move(impl_->config));
  impl_->config = std::move(replacement);
}

std::vector<const Ruleset*> PermissionService::configuredLayers(std::string_view agent) const {
  return impl_->configuredLayers(agent);
}

std::vector<json> PermissionService::pendingAsks(const std::optional<std::string>& sessionID) const {
  std::vector<std::shared_ptr<Impl::Pending>> asks;
  {
    std::lock_guard lock(impl_->mutex);
    for (const auto& [id, entry] : impl_->pending)
      if (!sessionID || entry->caller.sessionID == *sessionID) asks.push_back(entry);
  }
  std::sort(asks.begin(), asks.end(), [](const auto& a, const auto& b) { return a->number < b->number; });
  std::vector<json> result;
  for (const auto& entry : asks) result.push_back(Impl::requestJson(*entry));
  return result;
}

Ruleset PermissionService::savedApprovals() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->approvals.rules();
}

bool PermissionService::revokeApproval(const std::string& action, const std::string& resource) {
  ApprovalStore::Removal removal;
  {
    std::lock_guard lock(impl_->mutex);
    removal = impl_->approvals.remove(action, resource);
  }
  if (removal.removed) spdlog::info("permission: the saved approval {} on \"{}\" is revoked", action, resource);
  if (!removal.error.empty())
    throw std::runtime_error("the approval is revoked until toold exits, but the approvals file could not be written: " +
                             removal.error);
  return removal.removed;
}

void PermissionService::shutdown() { impl_->shutdown(); }

} // namespace toold::core
