// The `sandbox` section of toold.json and the --sandbox flag: which policy the kernel enforces on
// the commands toold starts (docs/security.md).
//
//   "sandbox": "workspace-write"              (or "read-only", or "off")
//   "sandbox": {"mode": "workspace-write",
//               "network": false,             (true: commands may open any socket)
//               "read": ["~/.cargo"],         (more folders commands may read)
//               "write": ["~/.cache/go-build"],(more folders commands may write)
//               "temp": true,                 (false: not /tmp, /var/tmp and $TMPDIR, but
//                                              toold's own scratch folder, given as TMPDIR)
//               "mcpServers": false}          (true: stdio MCP servers run in it too)
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toold::core {

enum class SandboxMode {
  Off,            ///< commands run as toold does
  ReadOnly,       ///< reads as below; no writes but the standard devices
  WorkspaceWrite, ///< writes inside the workspace (and temp); reads of the workspace and the system
};

std::optional<SandboxMode> parseSandboxMode(std::string_view text);
std::string_view sandboxModeName(SandboxMode mode);

struct SandboxSettings {
  std::optional<SandboxMode> mode; ///< unset: workspace-write, where the kernel allows it
  bool network = false;
  std::vector<std::string> read;  ///< absolute, `~` expanded
  std::vector<std::string> write; ///< absolute, `~` expanded
  bool systemTemp = true;
  bool mcpServers = false;

  bool operator==(const SandboxSettings&) const = default;
};

} // namespace toold::core
