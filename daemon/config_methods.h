// config/reload: reads toold.json (and .toold/tools/) again and applies it without a restart — the
// permission rules, the command tools of the `tools` section (scope `config`, replaced in one
// step), the MCP servers (only those whose config changed are restarted), `mcp.model`, `skills`,
// `webfetch`, and `codemode.enabled`/`codemode.tools` (docs/config.md has the table). A file with
// an error, or a change of a key only a restart applies (core/permission/config_restart.h, and the
// `lsp` and `formatter` sections), changes nothing and is answered -32602 naming the file, line and key, or the key.
#pragma once

#include "core/lsp/formatter_config.h"
#include "core/lsp/lsp_config.h"

#include <filesystem>
#include <optional>

namespace toold::core {
class McpClient;
class ToolService;
}

namespace toold::daemon {

class Server;

/// `lsp` and `formatter` are the sections toold started with: a reload that changes them is refused.
void bindConfigMethods(Server& server, core::ToolService& tools, core::McpClient& mcp, std::filesystem::path directory,
                       std::optional<std::filesystem::path> explicitFile, core::LspSettings lsp,
                       core::FormatterSettings formatter);

} // namespace toold::daemon
