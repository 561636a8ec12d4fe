// Evaluating rulesets: the last rule whose action and resource patterns both match decides; no
// match means ask. There is no specificity sorting — order alone decides, so a configuration reads
// top to bottom like a firewall's.
#pragma once

#include "core/permission/permission_ask.h"
#include "core/permission/permission_rule.h"

#include <span>
#include <string>
#include <string_view>

namespace toold::core {

/// The decision for one resource: the effect, and the rule that gave it (null: no rule matched).
struct RuleMatch {
  PermissionEffect effect = PermissionEffect::Ask;
  const PermissionRule* rule = nullptr;
};

/// The last matching rule over `layers`, taken in order as one ruleset. With `literalOnly`, allow
/// rules other than `*` and literal ones are passed over (see PermissionAsk::literalOnly); with
/// `grantedOnlyByName`, allow rules whose action is not exactly `action` (PermissionAsk's too).
RuleMatch lastMatchingRule(std::string_view action, std::string_view resource,
                           std::span<const Ruleset* const> layers, bool literalOnly = false,
                           bool grantedOnlyByName = false);

/// Whether `rule`'s resource covers `resource`: exact text for a literal rule, else a wildcard.
bool ruleResourceMatches(const PermissionRule& rule, std::string_view resource);

/// The decision for a whole ask, and the resource and rule that decided it.
struct AskJudgement {
  PermissionEffect effect = PermissionEffect::Ask;
  std::string resource;
  const PermissionRule* rule = nullptr;
};

/// Judges every resource of `ask`: denied if any resource is denied by the configured rules alone
/// (a saved approval never overrides a configured deny), else by configured and saved rules
/// together; asked if any is asked; allowed only when all are.
AskJudgement judgeAsk(const PermissionAsk& ask, std::span<const Ruleset* const> configured, const Ruleset& saved);

/// True when the last rule whose action pattern matches `action` denies the resource `*` itself:
/// no resource could ever be allowed, so the tool is left out of catalogs.
bool whollyDenied(std::string_view action, std::span<const Ruleset* const> layers);

} // namespace toold::core
