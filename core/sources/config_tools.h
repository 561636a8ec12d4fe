// Command tools declared in configuration rather than registered by a client: the `tools` section
// of toold.json (name → ToolSpec, exactly the shape `register` takes) and each
// `.toold/tools/<name>.json` of the Location (one ToolSpec, named after the file). Only command
// handlers: a config has no client to run a tool. Errors name the file, the line and the key, and
// refuse the whole configuration, like the permission section.
#pragma once

#include "protocol/tool_messages.h"

#include <filesystem>
#include <optional>
#include <string_view>

namespace toold::core {

/// The scope config tools are registered in.
inline constexpr std::string_view kConfigToolScope = "config";

/// Every declared tool, in the order of the file, then of the folder's file names. Throws ConfigError.
protocol::RegisterParams loadConfigTools(const std::filesystem::path& directory,
                                         const std::optional<std::filesystem::path>& explicitFile);

/// The `tools` section of configuration text; `displayName` names the file in errors.
std::vector<std::pair<std::string, protocol::ToolSpec>> parseConfigTools(std::string_view text, const std::string& displayName);

} // namespace toold::core
