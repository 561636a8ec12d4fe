// Putting a set of workspace paths back to a recorded state, whole or not at all. Before anything
// is touched every path is checked against the state it is expected to be in now (what the session
// itself left there): a path that differs — a person's later edit, a chmod, a file created meanwhile
// — refuses the whole restore and is named, so a person's work is never silently overwritten.
//
// Then, as a change of several files (builtins/files/file_transaction does the same for patches):
// every new content and symlink is staged beside its target, the journal (core/files/change_journal)
// is moved to "committing", each file to be replaced or removed is kept under a hard link, and the
// steps are done; if one fails, those done are undone in reverse from the kept links, so the
// workspace is as it was. After a kill while committing, the journal's replay finishes the renames
// and removes the kept links (their identity is the replaced file's).
#pragma once

#include "core/checkpoint/chunk_store.h"
#include "core/checkpoint/state_diff.h"

#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace toold::core {

class ChangeJournal;

struct RestoreOptions {
  /// With a journal and the workspace's absolute path, the change is journalled (see above).
  ChangeJournal* journal = nullptr;
  std::filesystem::path rootPath;
  /// Tests: called before each committing step (0, 1, …); true makes that step fail.
  std::function<bool(std::size_t step)> failBeforeStep;
};

struct RestoreResult {
  /// Empty on success. Else why nothing was changed (or, if undoing a failed step failed too, which
  /// paths could not be put back).
  std::string error;
  /// Paths whose present state is not the expected one (changed outside the session): the restore
  /// was refused because of them.
  std::vector<std::string> conflicts;
  std::vector<std::string> restored; ///< paths changed by the restore (those already as recorded are left)
};

/// Brings every path of `paths` (workspace-relative, below the folder `root`) to its record in
/// `target` — absent from `target`: the path is removed — provided each is now as `expected` says
/// (absent from `expected`: nothing may be there). Contents come from `store`: a chunk that was
/// evicted, or a record kept by hash only, fails the restore before anything is touched.
RestoreResult restoreState(int root, const std::vector<std::string>& paths, const WorkspaceState& target,
                           const WorkspaceState& expected, const ChunkStore& store, const RestoreOptions& options = {});

} // namespace toold::core
