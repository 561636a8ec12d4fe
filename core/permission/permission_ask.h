// What a tool asks the permission service: one action over some resources. The source of the ask
// (session, message, call) is never the tool's to give: it comes from the call's context.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace toold::core {

struct PermissionAsk {
  std::string action;
  /// What the call touches, each checked on its own: denied if any is denied, else asked if any
  /// is asked. Empty means "*".
  std::vector<std::string> resources;
  /// The patterns an "always" reply saves as allow rules (e.g. `git log *` for `git log -3`).
  std::vector<std::string> save;
  /// Shown to the person who decides; never to the model.
  nlohmann::json metadata = nlohmann::json::object();
  /// Fail-closed asks (a shell line toold could not read): an allow rule grants them only when
  /// its resource is `*` or a literal rule with exactly the resource's text, never through a
  /// pattern such as `git *`; deny and ask rules apply as usual. Its `save` patterns are saved as
  /// literal rules.
  bool literalOnly = false;
  /// Asks that guard a boundary (leaving the OS sandbox): an allow rule grants them only when its
  /// action names them exactly, never through a wildcard such as `*` (a rule written before the
  /// boundary existed), and the unattended policy never grants them; a person, a saved "always"
  /// or such a rule does.
  bool grantedOnlyByName = false;
};

} // namespace toold::core
