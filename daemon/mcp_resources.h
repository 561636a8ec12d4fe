// MCP resources: the full texts toold retained when it cut a tool's output (the files under
// `<data-dir>/tool-output/` that `outputPaths` and the cut text name, and background jobs' logs),
// so a host can show the whole text the model saw cut. Workspace files are not resources: the
// tools serve them, under their permissions.
#pragma once

#include <filesystem>
#include <string>

namespace toold::daemon {

class Server;

/// The URI of a retained output, and the template hosts see: toold://tool-output/{id}.
inline constexpr std::string_view kOutputUriPrefix = "toold://tool-output/";
/// Larger files are not read as a resource (the answer would be one frame of that size).
inline constexpr std::uintmax_t kMaxResourceBytes = 16u << 20;

/// Binds resources/list, resources/templates/list and resources/read over `outputDir`.
void bindMcpResources(Server& server, std::filesystem::path outputDir);

} // namespace toold::daemon
