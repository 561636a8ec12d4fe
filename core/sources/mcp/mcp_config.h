// The MCP servers toold connects to: the `mcp` section of toold.json in both opencode shapes, and
// the `server` object of `mcp/connect`.
//
//   V1: "mcp": {"fs": {"type": "local", "command": ["npx", "-y", "…"], "environment": {…},
//                      "enabled": true, "timeout": 5000},
//               "docs": {"type": "remote", "url": "https://…", "headers": {…}}}
//   V2: "mcp": {"timeout": {"startup": 30000, "catalog": 30000, "execution": 43200000},
//               "servers": {"fs": {"type": "local", "command": […], "cwd": ".", "disabled": false,
//                                  "codemode": true, "timeout": {"execution": 600000}}}}
//
// Both shapes take every server key of either (V1's integer `timeout` bounds start-up and each
// catalog page); `mcp.model` belongs to toold's own MCP face and is read with the permissions.
// `{env:NAME}` in any string is replaced by that variable (empty when unset), as opencode does.
// An error names the file, the line and the key, and refuses the file whole, like the
// permission section.
#pragma once

#include "core/base/environment_substitution.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toold::core {

struct McpTimeouts {
  std::chrono::milliseconds startup{30000};  ///< spawn or connect, `initialize` and the first full `tools/list`
  std::chrono::milliseconds catalog{30000};  ///< each page of a later `tools/list`
  std::chrono::milliseconds execution{12LL * 60 * 60 * 1000}; ///< a call, restarted by each progress notification
  bool operator==(const McpTimeouts&) const = default;
};

/// What toold answers a server's `roots/list` (a server such as server-filesystem replaces the
/// directories its arguments name with the roots it is given).
struct McpRootsConfig {
  /// Automatic: a local server one of whose arguments is an existing directory is offered no roots
  /// (what its command line narrowed stays narrowed); any other server gets the workspace.
  /// None (`"roots": false`): the capability is not declared. Listed (`"roots": [..]` or `true`
  /// for the workspace): these paths, relative to the workspace.
  enum class Mode { Automatic, None, Listed };
  Mode mode = Mode::Automatic;
  std::vector<std::string> paths;
  bool operator==(const McpRootsConfig&) const = default;
};

struct McpServerConfig {
  enum class Kind { Local, Remote };
  Kind kind = Kind::Local;
  std::vector<std::string> command;                 ///< local: program and arguments
  std::map<std::string, std::string> environment;   ///< local: laid over toold's environment
  std::string cwd;                                  ///< local: empty for the Location; relative to it
  std::string url;                                  ///< remote
  std::map<std::string, std::string> headers;       ///< remote: sent with every request
  bool disabled = false;
  bool codemode = true;
  McpRootsConfig roots;
  McpTimeouts timeout;
  bool operator==(const McpServerConfig&) const = default;
};

struct McpConfig {
  std::map<std::string, McpServerConfig> servers; ///< by name, sorted
  bool operator==(const McpConfig&) const = default;
};

/// Reads the `mcp` section of configuration text (the rest is the permission reader's). Throws
/// ConfigError (`toold.json:7: mcp.servers.fs.command: expected a non-empty array of strings, got []`).
McpConfig parseMcpConfig(std::string_view text, const std::string& displayName);

/// The same file loadPermissionConfig reads (`explicitFile`, else `<directory>/toold.json` if
/// present); an empty configuration without one. Throws ConfigError.
McpConfig loadMcpConfig(const std::filesystem::path& directory, const std::optional<std::filesystem::path>& explicitFile);

/// One server object as `mcp/connect` gives it; errors name `path` (`server.command: …`) and
/// are thrown as ConfigError.
McpServerConfig parseMcpServerConfig(const nlohmann::json& value, const std::string& path,
                                     const McpTimeouts& defaults = {});

} // namespace toold::core
