// A request snapshot: the tools one model request advertised, captured. Calls through it run the
// registration it advertised, even after that registration was replaced or its scope closed, so
// the model always gets the tool it was shown.
#pragma once

#include "core/permission/permission_config.h"
#include "core/permission/permission_rule.h"
#include "core/tools/catalog_view.h"
#include "core/tools/tool_registry.h"
#include "protocol/tool_messages.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace toold::core {

struct Snapshot {
  std::string id;
  std::string sessionID;
  std::string agent;
  std::optional<std::string> model;
  /// The agent's last step: definitions are kept (prompt caches survive), but no call runs.
  bool final = false;
  std::vector<std::shared_ptr<const RegisteredTool>> tools; ///< advertised, sorted by name
  /// Code Mode: `tools` are then the direct tools (with `execute` when any Code Mode tool is
  /// visible) and `inventory` holds the Code Mode tools, as a snapshot of their own — same id,
  /// session and rules — through which `execute` runs a program's calls.
  bool codemode = false;
  std::shared_ptr<const Snapshot> inventory;
  /// Tools a wildcard of `codemode.tools` would have moved in but that stay direct: name, why.
  std::vector<std::pair<std::string, std::string>> codemodeKeptDirect;
  /// Direct tools Code Mode offers inside `execute` too (Tool::codemodeAlsoByDefault), by name.
  std::vector<std::string> codemodeAlsoDirect;
  /// The snapshot's own permission rules: they filter the catalog and judge its calls.
  std::shared_ptr<const Ruleset> rules;
  /// What the snapshot's tools were described with, and see again when they run.
  std::shared_ptr<const CatalogView> catalog;
  /// The provider profile the input schemas were shaped for; empty: as registered.
  std::string provider;
  /// Per tool name, what the provider shaping changed that a call's input must have undone
  /// before it is validated against the tool's own schema (core/schema/provider_schema.h).
  std::map<std::string, json, std::less<>> inputUndo;

  /// The advertised tool called `name`; else the one advertised name that differs from it only in
  /// ASCII letter case (models sometimes capitalise); else null.
  const RegisteredTool* find(std::string_view name) const;
  /// The definitions the model is shown: [{name, description, inputSchema, outputSchema?}].
  json definitions() const;
  /// The same, as JSON text appended to `out`: the definitions' texts as kept, never re-serialized.
  /// `out` is grown once, to hold them and `room` bytes more (what the caller writes after them:
  /// growing a buffer of megabytes again copies it whole, onto fresh pages).
  void appendDefinitions(std::string& out, std::size_t room = 0) const;
  /// The same as pieces to write one after the other: '[', each definition's text as kept with
  /// ',' between, and ']' (views of texts this snapshot's tools hold, and of constants). False,
  /// with nothing added, when a tool keeps no text (one made by hand): appendDefinitions then.
  bool definitionPieces(std::vector<std::string_view>& out) const;
  /// What names the definitions' texts (the `tools` array as written): 32 hex digits of the
  /// XXH3-128 of each definition's XXH3-128, in order. Two snapshots show the model the same tools
  /// exactly when theirs are equal, so a runner that holds one's definitions need not be sent the
  /// other's.
  std::string toolsHash() const;
  std::vector<std::string> names() const;
};

/// What a snapshot is taken in besides the registry and the request: the client's declared
/// capabilities and the Location.
struct SnapshotEnvironment {
  json capabilities = json::object();
  std::shared_ptr<const Location> location;
};

/// What a snapshot needs to use Code Mode: the configured section and the prepared `execute`.
struct SnapshotCodemode {
  const CodemodeSettings* settings = nullptr;
  std::shared_ptr<const RegisteredTool> execute;
};

/// Whether `tool` runs inside Code Mode: its own flag, unless a pattern of the config's
/// `codemode.tools` matches its name (the last one that matches decides).
/// A tool whose `codemodeDirectReason` keeps it direct is moved in only by its exact name.
bool runsInCodemode(const RegisteredTool& tool, const CodemodeSettings* settings);
/// Whether a wildcard of `codemode.tools` matched `tool` but its reason kept it direct.
bool keptDirectByWildcard(const RegisteredTool& tool, const CodemodeSettings* settings);

/// Captures the advertised subset of `effective` for one request: tools whose permission action is
/// wholly denied by the configured rules (`configured`) followed by `params.rules`, hidden for
/// `params.model`, or whose `describe` declines this snapshot are left out. Dynamic descriptions
/// are filled in, and with `params.provider` each input schema is shaped for that provider.
/// With Code Mode on (`params.codemode`, else the config) and `execute` not wholly denied, the
/// Code Mode tools move into the inventory. Throws std::invalid_argument for an unknown provider.
std::shared_ptr<const Snapshot> takeSnapshot(std::string id,
                                             const std::vector<std::shared_ptr<const RegisteredTool>>& effective,
                                             const protocol::SnapshotParams& params,
                                             std::vector<const Ruleset*> configured,
                                             const SnapshotEnvironment& environment = {},
                                             const SnapshotCodemode& codemode = {});

} // namespace toold::core
