// The Location: where one ToolService's tools act. Every room that stores or checks something per
// workspace (permissions, saved approvals, output files, the path boundary) is given one.
#pragma once

#include <filesystem>

namespace toold::core {

/// Where tools act: the workspace directory (canonical), the git worktree that holds it, and the
/// daemon's data folder.
struct Location {
  std::filesystem::path directory;
  std::filesystem::path dataDir;
  /// The root of the git repository holding `directory` (canonical); empty when there is none.
  std::filesystem::path worktree;
};

} // namespace toold::core
