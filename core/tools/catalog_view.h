// What one snapshot knows about the request it was taken for, beyond the tools: the agent, the
// permission rules that judge it, the agents a runner can delegate to, the client's declared
// capabilities, and the Location. Built-ins whose description or availability depends on these
// (task lists the agents it may start, skill the skills it may load, question and task need a
// client that can answer) read them when the snapshot is taken, and again when they run.
#pragma once

#include "core/base/location.h"
#include "core/permission/permission_rule.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace toold::core {

struct CatalogView {
  std::string agent;
  /// The configured layers (defaults, config, the agent's section); they live as long as the
  /// ToolService.
  std::vector<const Ruleset*> configured;
  /// The snapshot's own rules, evaluated after the configured ones.
  std::shared_ptr<const Ruleset> snapshotRules;
  /// The snapshot's `agents`: [{name, description}], in the order given.
  nlohmann::json agents = nlohmann::json::array();
  /// The capabilities the client declared in `initialize` (an object).
  nlohmann::json capabilities = nlohmann::json::object();
  std::shared_ptr<const Location> location;

  /// True when the last rule matching `action` on `resource` denies it: what opencode filters its
  /// agent and skill lists by (an ask still lists the entry).
  bool denies(std::string_view action, std::string_view resource) const;
  /// True when the client declared `capabilities[name]` as an object.
  bool declared(std::string_view name) const;
};

} // namespace toold::core
