// What an MCP host is told in `initialize`'s `instructions`: how toold's tools are meant to be used
// together. Hosts put it in the model's system prompt, so it is short and names only what the
// listed tools can do.
#pragma once

#include "core/tools/snapshot.h"

#include <filesystem>
#include <string>

namespace toold::daemon {

/// The text for `snapshot` (the MCP face's implicit snapshot) serving `workspace`: the workspace,
/// read before edit, background jobs and cut outputs when those tools are listed, Code Mode when
/// `execute` is, and how a host's prefix on tool names relates to the names in toold's texts.
std::string mcpInstructions(const core::Snapshot& snapshot, const std::filesystem::path& workspace);

} // namespace toold::daemon
