#include "core/permission/permission_rule.h"

namespace toold::core {

std::optional<PermissionEffect> parsePermissionEffect(std::string_view text) {
  if (text == "allow") return PermissionEffect::Allow;
  if (text == "deny") return PermissionEffect::Deny;
  if (text == "ask") return PermissionEffect::Ask;
  return std::nullopt;
}

std::string_view permissionEffectName(PermissionEffect effect) {
  switch (effect) {
  case PermissionEffect::Allow:
    return "allow";
  case PermissionEffect::Deny:
    return "deny";
  case PermissionEffect::Ask:
    break;
  }
  return "ask";
}

} // namespace toold::core
