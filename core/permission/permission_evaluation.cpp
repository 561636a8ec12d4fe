#include "core/permission/permission_evaluation.h"

#include "core/permission/wildcard.h"

#include <optional>
#include <vector>

namespace toold::core {

namespace {

const std::vector<std::string> kEveryResource{"*"};

const std::vector<std::string>& resourcesOf(const PermissionAsk& ask) {
  return ask.resources.empty() ? kEveryResource : ask.resources;
}

} // namespace

bool ruleResourceMatches(const PermissionRule& rule, std::string_view resource) {
  return rule.literal ? rule.resource == resource : wildcardMatch(rule.resource, resource);
}

RuleMatch lastMatchingRule(std::string_view action, std::string_view resource,
                           std::span<const Ruleset* const> layers, bool literalOnly, bool grantedOnlyByName) {
  for (auto layer = layers.rbegin(); layer != layers.rend(); ++layer) {
    if (*layer == nullptr) continue;
    for (auto rule = (*layer)->rbegin(); rule != (*layer)->rend(); ++rule) {
      if (!wildcardMatch(rule->action, action) || !ruleResourceMatches(*rule, resource)) continue;
      if (literalOnly && rule->effect == PermissionEffect::Allow && !rule->literal && rule->resource != "*") continue;
      if (grantedOnlyByName && rule->effect == PermissionEffect::Allow && rule->action != action) continue;
      return RuleMatch{rule->effect, &*rule};
    }
  }
  return RuleMatch{};
}

namespace {

// A deny of any resource wins; else the first resource's ask; else allow.
AskJudgement denyAskOrAllow(const PermissionAsk& ask, const std::vector<std::string>& resources,
                            std::span<const Ruleset* const> layers) {
  std::optional<AskJudgement> firstAsk;
  for (const auto& resource : resources) {
    auto match = lastMatchingRule(ask.action, resource, layers, ask.literalOnly, ask.grantedOnlyByName);
    if (match.effect == PermissionEffect::Deny) return AskJudgement{PermissionEffect::Deny, resource, match.rule};
    if (match.effect == PermissionEffect::Ask && !firstAsk)
      firstAsk = AskJudgement{PermissionEffect::Ask, resource, match.rule};
  }
  if (firstAsk) return *firstAsk;
  return AskJudgement{PermissionEffect::Allow, resources.front(), nullptr};
}

} // namespace

AskJudgement judgeAsk(const PermissionAsk& ask, std::span<const Ruleset* const> configured, const Ruleset& saved) {
  const auto& resources = resourcesOf(ask);
  // Nothing saved (most sessions): the configured rules alone decide, each resource matched once.
  if (saved.empty()) return denyAskOrAllow(ask, resources, configured);
  // Configured denies come first: a saved "always" never lifts them.
  for (const auto& resource : resources) {
    auto match = lastMatchingRule(ask.action, resource, configured, ask.literalOnly, ask.grantedOnlyByName);
    if (match.effect == PermissionEffect::Deny) return AskJudgement{PermissionEffect::Deny, resource, match.rule};
  }
  std::vector<const Ruleset*> all(configured.begin(), configured.end());
  all.push_back(&saved);
  return denyAskOrAllow(ask, resources, all);
}

bool whollyDenied(std::string_view action, std::span<const Ruleset* const> layers) {
  for (auto layer = layers.rbegin(); layer != layers.rend(); ++layer) {
    if (*layer == nullptr) continue;
    for (auto rule = (*layer)->rbegin(); rule != (*layer)->rend(); ++rule) {
      if (!wildcardMatch(rule->action, action)) continue;
      return rule->resource == "*" && rule->effect == PermissionEffect::Deny;
    }
  }
  return false;
}

} // namespace toold::core
