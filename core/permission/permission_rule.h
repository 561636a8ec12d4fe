// A permission rule and its effect: `{action, resource, effect}`, both patterns in the wildcard
// syntax of core/permission/wildcard.h. Rulesets are ordered; the last matching rule decides.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toold::core {

enum class PermissionEffect { Allow, Deny, Ask };

/// "allow", "deny" or "ask"; nullopt for anything else.
std::optional<PermissionEffect> parsePermissionEffect(std::string_view text);
std::string_view permissionEffectName(PermissionEffect effect);

struct PermissionRule {
  std::string action;   ///< the permission's name: "read", "bash", "mcp_*", …
  std::string resource; ///< what it is about: a path, a command, "*"
  PermissionEffect effect = PermissionEffect::Ask;
  /// Where the rule came from, for the messages that name it: "defaults", "toold.json:4",
  /// "snapshot", "saved approval".
  std::string source;
  /// The resource is compared as exact text, not as a pattern: an "always" answer to a literal
  /// ask (a shell line toold could not read) saves the line itself, and a `*` or `?` in it must
  /// not turn it into a pattern that allows other lines.
  bool literal = false;

  bool operator==(const PermissionRule&) const = default;
};

using Ruleset = std::vector<PermissionRule>;

} // namespace toold::core
