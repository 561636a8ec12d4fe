// The names an MCP server's tools get in toold: `<server>_<tool>` with every character outside
// [A-Za-z0-9_-] made `_` (opencode's rule, so permission rules such as "github_*" carry over).
// Two opencode bugs are fixed here: a name over 64 characters, or two tools whose names meet after
// sanitizing, no longer break the server or shadow each other silently — such a tool gets a short
// suffix instead, `<first 55 characters>_<8 hex of a hash of server and raw tool name>`. The hash
// is of the raw names, never of an order, so a name stays the same across restarts.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace toold::core {

/// The plain name: sanitize(server) + "_" + sanitize(tool).
std::string mcpPlainToolName(std::string_view server, std::string_view tool);

/// The 64-character name with the hash suffix; `attempt` > 0 hashes again for a further clash.
std::string mcpHashedToolName(std::string_view server, std::string_view tool, unsigned attempt = 0);

struct McpToolName {
  std::string raw;       ///< the server's name for it, used in tools/call
  std::string effective; ///< toold's
  bool renamed = false;  ///< given a hash suffix (too long, or a clash)
};

/// Names for one server's tools, in their order. A tool whose raw name is exactly its sanitized
/// form keeps the plain name in a clash; the others (and every plain name over 64 characters or
/// for which `takenElsewhere` is true) get the hashed form.
std::vector<McpToolName> nameMcpTools(std::string_view server, const std::vector<std::string>& rawNames,
                                      const std::function<bool(const std::string&)>& takenElsewhere);

} // namespace toold::core
