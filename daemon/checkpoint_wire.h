// The checkpoint/ methods' params and results on the wire, with their JSON conversions
// (docs/checkpoints.md, "Methods"):
//
//   checkpoint/list    {sessionID}                              → {sessionID, checkpoints, evicted?}
//   checkpoint/diff    {sessionID, callID | messageID | range}  → {diff, files, truncated?, outputPath?}
//   checkpoint/restore {sessionID, callID? | messageID?}        → {checkpoint, restored}  (neither: the newest call standing)
//   checkpoint/redo    {sessionID}                              → {checkpoint, restored}
#pragma once

#include "builtins/checkpoint/checkpoint_actions.h"
#include "protocol/error_code.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace toold::daemon {

using nlohmann::json;

/// A restore or redo refused because paths were changed outside the session since (a person's
/// edit); data.conflicts names them. Nothing was changed.
inline constexpr auto kCheckpointConflict = static_cast<protocol::ErrorCode>(-32010);
/// No such checkpoint to show or restore: checkpoints off, an unknown session or call, evicted,
/// nothing to redo, a version not recorded, a restore that failed; data.reason says which.
inline constexpr auto kCheckpointUnavailable = static_cast<protocol::ErrorCode>(-32011);

/// Which of a session's checkpoints a request means (builtins/checkpoint/checkpoint_actions.h).
using CheckpointSelection = builtins::CheckpointPick;

/// Reads {sessionID, callID | messageID | range: {from, to}}; exactly one selector when
/// `selectorRequired`, at most one otherwise (`allowRange`: range is one). Throws
/// protocol::ParamsError.
CheckpointSelection readCheckpointSelection(const json& params, bool selectorRequired, bool allowRange);

/// A refusal as the methods answer it: -32010 with data.conflicts, or -32011 with data.reason.
protocol::RpcError checkpointError(const builtins::CheckpointRefusal& refusal);

} // namespace toold::daemon
