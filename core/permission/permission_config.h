// toold's configuration file: `toold.json` in the workspace directory, or the file given by
// `--config`. It holds permission rules in opencode's `permission` syntax, for all agents and per
// agent:
//
//   {
//     "$schema": "…",                                  (optional, ignored)
//     "permission": {
//       "edit": "deny",                                (an action: resource "*")
//       "bash": {"git *": "allow", "rm *": "deny"},    (an action: resource patterns)
//       "mymcp_*": "allow"
//     },
//     "agent": {"plan": {"permission": {"edit": "deny"}}, "review": {"permission": "ask"}},
//     "mcp": {"model": "gpt-5"},                       (the model the MCP face serves; optional)
//     "output": {"maxBytes": 20000, "maxLines": 400},  (every face's budget of a tool's answer; optional)
//     "output": {"budgetBytes": 4294967296, "fileBytes": 268435456},  (what tool-output/ keeps; optional)
//     "checkpoints": {"enabled": true, "budgetBytes": 1073741824},  (docs/checkpoints.md; optional)
//     "codemode": true                                 (Code Mode for every snapshot; or an object:)
//     "codemode": {"enabled": true, "timeout": 120000, "maxToolCalls": 1000, "memory": 384,
//                  "tools": {"read": true, "acme_*": false}},  (which tools run inside it)
//     "asks": "auto"                                   (how asks are answered: auto, client or unattended;
//     "asks": {"route": "auto", "unattended": "allow"}  or an object, with the unattended policy too)
//     "sandbox": "workspace-write"                     (the OS sandbox of commands; see sandbox_settings.h)
//   }
//
// `permission` may also be one effect, a rule for every action and resource. Rules keep the order
// of the file, since the last matching rule decides. Resource patterns `~`, `~/…`, `$HOME` and
// `$HOME/…` stand for the home directory. Every rule names its origin ("toold.json:4").
//
// A file with any error is refused whole, never half applied: a permission the user wrote and
// toold silently dropped would be worse than no start at all. So the checks are strict: unknown
// keys, keys given twice in one object, effects other than exactly "allow", "deny" or "ask", empty
// patterns. Each error names the file, the line and the key.
#pragma once

#include "core/permission/ask_route.h"
#include "core/permission/permission_rule.h"
#include "core/sandbox/sandbox_settings.h"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace toold::core {

/// The name of the configuration file looked for in the workspace directory.
inline constexpr std::string_view kConfigFileName = "toold.json";

/// The `codemode` section: whether snapshots use Code Mode, its limits, and which tools it holds.
struct CodemodeSettings {
  bool enabled = false;
  std::optional<std::uint64_t> timeoutMs;    ///< a program's wall clock; default 120 s
  std::optional<std::uint64_t> maxToolCalls; ///< inner calls per program; default 1000
  std::optional<std::uint64_t> memoryMb;     ///< a program's worker may grow to this resident size; default 384
  /// Tool name patterns (wildcards as in permission actions) → inside Code Mode or direct; the
  /// last matching one decides, over the tool's own flag.
  std::vector<std::pair<std::string, bool>> tools;
};

struct PermissionConfig {
  std::string file; ///< the display name of the file read; empty when there was none
  Ruleset rules;    ///< the `permission` section, in file order
  std::map<std::string, Ruleset, std::less<>> agents; ///< per-agent `permission` sections, by agent name
  std::optional<std::string> mcpModel; ///< `mcp.model`: the model the MCP face's tool set is chosen for
  /// `mcp.foregroundLimit` (seconds; 0: never): how long the MCP face's calls hold a command.
  std::optional<std::chrono::milliseconds> mcpForegroundLimit;
  std::vector<std::string> skillPaths; ///< `skills.paths`: more folders of SKILL.md files
  bool webfetchPrivateAddresses = false; ///< `webfetch.allowPrivateAddresses`
  CodemodeSettings codemode;           ///< `codemode`
  std::optional<AskRoute> asks;        ///< `asks` (or `asks.route`): how asks are answered; the flag wins
  std::optional<bool> unattendedAllow; ///< `asks.unattended`: the unattended policy; the flag wins
  /// `output.maxLines` / `output.maxBytes`: the budget of a tool's answer on every face, as
  /// --max-output-lines / --max-output-bytes give it (the flags win); unset: each face's default.
  std::optional<std::size_t> outputMaxLines;
  std::optional<std::size_t> outputMaxBytes;
  /// `output.budgetBytes` / `output.fileBytes`: what `<data-dir>/tool-output` keeps in all and of
  /// one output, as --output-budget / --output-file-bytes give it (the flags win).
  std::optional<std::uint64_t> outputBudgetBytes;
  std::optional<std::uint64_t> outputFileBytes;
  /// `checkpoints.enabled` / `checkpoints.budgetBytes`: whether calls' changes are recorded to be
  /// undone, and the bytes a workspace's checkpoints may take (the flags win).
  std::optional<bool> checkpointsEnabled;
  std::optional<std::uint64_t> checkpointBudgetBytes;
  SandboxSettings sandbox; ///< `sandbox`: the policy for the commands toold starts; --sandbox wins for the mode
};

/// A configuration that cannot be used. The message is complete and meant for the user, e.g.
/// `toold.json:5: permission.bash."git *": expected "allow", "deny" or "ask", got 5`.
class ConfigError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// The error of configuration text that is not JSON: `<file>:<line>:<column>: <what is wrong>`,
/// with the advice to remove them when it is a comment (opencode's files are JSONC; toold's are
/// plain JSON).
ConfigError jsonSyntaxError(std::string_view text, const std::string& displayName);

/// Parses configuration text. `displayName` is how messages and rule sources name the file.
/// `homeDirectory` is what `~` and `$HOME` in resource patterns stand for; nullopt: the user's
/// ($HOME, else the password database). Throws ConfigError.
PermissionConfig parsePermissionConfig(std::string_view text, const std::string& displayName,
                                       const std::optional<std::string>& homeDirectory = std::nullopt);

/// Reads `explicitFile` if given (it must exist; named as given), else `<directory>/toold.json`
/// if anything is there (named "toold.json"), else returns an empty configuration. Throws
/// ConfigError, for an unreadable file too.
PermissionConfig loadPermissionConfig(const std::filesystem::path& directory,
                                      const std::optional<std::filesystem::path>& explicitFile);

} // namespace toold::core
