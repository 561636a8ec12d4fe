// The Location: where one ToolService's tools act. Every room that stores or checks something per
// workspace (permissions, saved approvals, output files, the path boundary) is given one.
#pragma once

#include <filesystem>
#include <memory>

namespace toold::core {

struct WorkspaceRoot; // core/workspace/workspace_root.h
class OutputStore;    // core/output/output_store.h
class CheckpointBook; // core/checkpoint/checkpoint_book.h

/// Where tools act: the workspace directory (canonical), the git worktree that holds it, and the
/// daemon's data folder.
struct Location {
  std::filesystem::path directory;
  std::filesystem::path dataDir;
  /// The root of the git repository holding `directory` (canonical); empty when there is none.
  std::filesystem::path worktree;
  /// `directory` held open since toold started (null: not held). Paths below it are opened from
  /// it, never from `/`; once `directory` names another folder (renamed away, or exchanged with
  /// another folder) the file tools refuse to act, rather than follow the name. Shared: copies of
  /// the Location hold the same descriptor.
  std::shared_ptr<const WorkspaceRoot> root = nullptr;
  /// `<dataDir>/tool-output`, with the running account of its budget that every writer to it
  /// shares (set by the ToolService; null: a tool run outside one keeps its output unbounded).
  std::shared_ptr<OutputStore> outputs = nullptr;
  /// `<dataDir>/checkpoints/<key>`: what calls changed in the workspace, to be shown and undone
  /// (set by the ToolService; null when checkpoints are off).
  std::shared_ptr<CheckpointBook> checkpoints = nullptr;
};

} // namespace toold::core
