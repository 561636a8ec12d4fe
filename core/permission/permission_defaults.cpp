#include "core/permission/permission_defaults.h"

namespace toold::core {

Ruleset defaultPermissionRules(const std::filesystem::path& toolOutputFolder) {
  constexpr auto allow = PermissionEffect::Allow;
  constexpr auto ask = PermissionEffect::Ask;
  const std::string source = "defaults";
  return Ruleset{
      {"*", "*", allow, source},
      {"doom_loop", "*", ask, source},
      {"external_directory", "*", ask, source},
      {kSandboxAction, "*", ask, source},
      {"external_directory", toolOutputFolder.generic_string() + "/*", allow, source},
      // The checkpoint tools (changes, undo) are for a host to offer when it wants them: wholly
      // denied, so hidden from snapshots, until the config says `"undo": "ask"` or "allow".
      {"undo", "*", PermissionEffect::Deny, source},
      // Secrets: .env files ask; their checked-in templates do not hold secrets.
      {"read", "*.env", ask, source},
      {"read", "*.env.*", ask, source},
      {"read", "*.env.example", allow, source},
      {"read", "*.env.sample", allow, source},
      {"read", "*.env.template", allow, source},
  };
}

} // namespace toold::core
