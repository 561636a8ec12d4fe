// Changing several files as one: every new content is staged (written and flushed beside its
// target) before any target is touched, then the renames and removals are committed; if any step
// fails, what was already committed is put back as it was. apply_patch uses it so that a patch
// applies whole or not at all. Every step acts through the target's folder, held afresh
// (core/workspace/held_location.h), so a folder swapped for a symlink meanwhile is refused, not followed.
#pragma once

#include "core/files/change_journal.h"
#include "core/workspace/workspace_root.h"

#include <filesystem>
#include <optional>
#include <string>
#include <sys/stat.h>
#include <vector>

namespace toold::builtins {

struct FileChange {
  std::filesystem::path target;        ///< canonical
  std::optional<std::string> content;  ///< the new bytes; nullopt removes the file
  std::optional<std::string> previous; ///< the bytes it had, nullopt when it did not exist (for rollback)
  mode_t previousMode = 0644;          ///< the mode it had (for rollback of a removal)
  mode_t createMode = 0644;            ///< the mode of a new file (an existing one keeps its own)
};

struct CommitResult {
  std::string error;                 ///< empty on success; else what failed and that nothing was changed
  std::vector<struct stat> written;  ///< per change with content: the new file's status (same order)
};

/// Applies `changes` in order, each target held from `root` when it is in it (the Location's held
/// workspace folder; null: from `/`): missing parent folders are created (0755, subject to the umask) and
/// removed again on failure; contents are staged, then renamed over their targets, then removals
/// are done. On a failure the committed renames are undone (the previous bytes written back, or the
/// new file removed), removed files are restored with their mode, and `error` says what failed —
/// or, if the restoration itself failed, which files could not be restored.
///
/// With a `journal`, the intent (folders, targets, staging files) is written and flushed before
/// anything is created, and marked "committing" once every staged file is flushed, so a start after
/// a kill finishes or undoes the change whole (core/files/journal_replay). Many files are flushed with one
/// syncfs per file system rather than one fsync each.
CommitResult commitFileChanges(const std::vector<FileChange>& changes, const core::WorkspaceRoot* root,
                               core::ChangeJournal* journal = core::processJournal());

} // namespace toold::builtins
