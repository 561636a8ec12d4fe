// What a run of one session's checkpoints did to the workspace, as one change: for each path any
// of them touched, its record before the first that touched it and after the last. The diff of a
// range shows that change; a restore goes back from its "after" (what the session left, which must
// still be there) to its "before". Pure functions over checkpoints already read.
#pragma once

#include "core/checkpoint/checkpoint_manifest.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace toold::core {

struct RangeChange {
  std::vector<std::string> paths; ///< every touched path, sorted
  /// Each path's record before the first checkpoint that touched it (absent: it did not exist)...
  WorkspaceState before;
  /// ...and after the last one (absent: it did not exist then).
  WorkspaceState after;
  /// Paths whose version before the range is not known (the first checkpoint touching them could
  /// not record it): shown, never restored.
  std::vector<std::string> unrestorable;
  std::uint64_t firstSequence = 0, lastSequence = 0;
};

/// The change of `history[from..to]` (indices, inclusive; history in sequence order).
RangeChange changeOfRange(const std::vector<Checkpoint>& history, std::size_t from, std::size_t to);

/// The index of the first checkpoint made by the call `callID`, or by a call of the message
/// `messageID` (exactly one of them set); nullopt when none was.
std::optional<std::size_t> firstCheckpointOf(const std::vector<Checkpoint>& history, const std::string* callID,
                                             const std::string* messageID);

/// The index of the session's newest call checkpoint whose change still stands: not gone back
/// before by a restore, or put back by a redo of that restore. What an undo with no call named
/// takes back; nullopt when every call was undone (or there is none).
std::optional<std::size_t> newestStandingCall(const std::vector<Checkpoint>& history);

/// Where a restore goes and what it expects to find, or why there is none.
struct RestorePlan {
  std::string error; ///< set when there is nothing to do; the rest is then empty
  enum class Refusal { None, UnknownCheckpoint, NothingToRedo, Unrestorable } refusal = Refusal::None;
  CheckpointKind kind = CheckpointKind::Restore;
  std::uint64_t of = 0; ///< the checkpoint the restore goes back before; the restore a redo undoes
  std::vector<std::string> paths;
  WorkspaceState target, expected;
};

/// Back to before `history[from]`, for every path the session changed from there on: each path's
/// "before" in the first checkpoint that touched it, expected to be as the session's last
/// checkpoint touching it left it.
RestorePlan planRestore(const std::vector<Checkpoint>& history, std::size_t from);

/// Undoing the session's last restore: only while it is the session's last checkpoint (a later
/// call built on the restored state; undoing under it would lose that call's work).
RestorePlan planRedo(const std::vector<Checkpoint>& history);

} // namespace toold::core
