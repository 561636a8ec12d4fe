#include "core/permission/ask_route.h"

#include <spdlog/spdlog.h>

namespace toold::core {

using json = nlohmann::json;

namespace {

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

constexpr std::size_t kQuotedErrorBytes = 200;

// Content a person typed or chose: an empty object (or none) is what a host sends when no one did.
bool hasContent(const json& result) {
  auto it = result.find("content");
  return it != result.end() && !it->is_null() && !(it->is_object() && it->empty());
}

} // namespace

std::optional<AskRoute> parseAskRoute(std::string_view name) {
  if (name == "auto") return AskRoute::Auto;
  if (name == "client") return AskRoute::Client;
  if (name == "unattended") return AskRoute::Unattended;
  return std::nullopt;
}

std::string_view askRouteName(AskRoute route) {
  switch (route) {
  case AskRoute::Auto: return "auto";
  case AskRoute::Client: return "client";
  case AskRoute::Unattended: return "unattended";
  }
  return "auto";
}

bool dismissedWithoutPerson(const json& result, std::chrono::milliseconds elapsed) {
  if (!result.is_object() || elapsed >= kFastestPersonAnswer || hasContent(result)) return false;
  const auto action = result.find("action");
  return action != result.end() && (*action == "cancel" || *action == "decline");
}

AskDecision AskRouter::decide(const json& capabilities) const {
  if (route_ == AskRoute::Unattended)
    return {AskChannel::Unattended, "toold is set to decide permission requests without asking the client "
                                    "(--asks unattended, or \"asks\": \"unattended\" in toold.json)"};
  {
    std::lock_guard lock(mutex_);
    if (!headless_.empty()) return {AskChannel::Unattended, headless_};
  }
  if (capabilities.is_object() && declared(capabilities, "permission")) return {AskChannel::Native, {}};
  if (capabilities.is_object() && formElicitation(capabilities)) return {AskChannel::Elicitation, {}};
  return {AskChannel::Unattended, "the client cannot answer permission requests: it declared neither toold's "
                                  "permission capability nor MCP form elicitation"};
}

void AskRouter::rememberHeadless(std::string why, const std::string& logged) {
  {
    std::lock_guard lock(mutex_);
    if (!headless_.empty()) return;
    headless_ = std::move(why);
  }
  spdlog::warn("permission: {}: no one is there to answer. From now on this connection's asks are decided by the "
               "unattended policy (--unattended); start toold with --asks client to keep asking the client",
               logged);
}

std::optional<std::string> AskRouter::judgeFormAnswer(const json& result, std::chrono::milliseconds elapsed) {
  if (route_ != AskRoute::Auto || !dismissedWithoutPerson(result, elapsed)) return std::nullopt;
  const std::string action = result.value("action", std::string());
  const std::string ms = std::to_string(elapsed.count()) + " ms";
  rememberHeadless("the client answers permission forms without showing them to anyone: it answered one with \"" +
                       action + "\" after " + ms,
                   "the client answered a permission form with \"" + action + "\" after " + ms +
                       ", sooner than a person can read it");
  return "the client answered the form with \"" + action + "\" after " + ms +
         ", sooner than a person can read it, so no person saw it";
}

std::optional<std::string> AskRouter::judgeFormError(const std::string& error) {
  if (route_ != AskRoute::Auto) return std::nullopt;
  // The client's words, bounded (and never cut inside a UTF-8 character): they reach the model.
  std::string message = error;
  if (message.size() > kQuotedErrorBytes) {
    std::size_t cut = kQuotedErrorBytes;
    while (cut > 0 && (static_cast<unsigned char>(message[cut]) & 0xC0) == 0x80) --cut;
    message = message.substr(0, cut) + "…";
  }
  rememberHeadless("the client cannot show permission forms: it answered one with the error \"" + message + "\"",
                   "the client answered a permission form with the error \"" + message + "\"");
  return "the client answered the form with the error \"" + message + "\", so no person saw it";
}

} // namespace toold::core
