// Carrying out a restore or redo plan (checkpoint_range.h) through restoreState, and recording it
// as a checkpoint of its own (kind restore or redo), so that it can be listed, diffed, undone by a
// redo, and gone back before like any call. The caller holds the path locks of the plan's paths
// (core/files/path_locks), so toold's own tools cannot change them meanwhile.
#pragma once

#include "core/checkpoint/checkpoint_book.h"
#include "core/checkpoint/checkpoint_range.h"
#include "core/checkpoint/state_restore.h"

#include <cstdint>

namespace toold::core {

class ChangeJournal;

struct UndoOutcome {
  RestoreResult result;       ///< error and conflicts when refused; the paths changed otherwise
  std::uint64_t sequence = 0; ///< the checkpoint that records it (0: nothing changed, or refused)
  std::string recordError;    ///< set when the restore happened but could not be recorded
};

/// Brings the plan's paths below the workspace folder `root` to its target, refusing when any is
/// not as expected. `journal` (with `book.workspace()` as the root path) makes it survive a kill.
UndoOutcome carryOut(CheckpointBook& book, const RestorePlan& plan, int root, ChangeJournal* journal,
                     const CallIdentity& identity);

} // namespace toold::core
