// The Location: where one ToolService's tools act. Every room that stores or checks something per
// workspace (permissions, saved approvals, output files, the path boundary) is given one.
#pragma once

#include <cstdint>
#include <filesystem>

namespace toold::core {

/// Where tools act: the workspace directory (canonical), the git worktree that holds it, and the
/// daemon's data folder.
struct Location {
  std::filesystem::path directory;
  std::filesystem::path dataDir;
  /// The root of the git repository holding `directory` (canonical); empty when there is none.
  std::filesystem::path worktree;
  /// The identity of `directory` when toold started (0, 0: not known). A workspace folder renamed
  /// away, or exchanged with another folder, no longer has it: the file tools then refuse to act,
  /// rather than follow the name to wherever it now leads.
  std::uint64_t rootDevice = 0;
  std::uint64_t rootInode = 0;
};

} // namespace toold::core
