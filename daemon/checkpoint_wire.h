// The checkpoint/ methods' params and results on the wire, with their JSON conversions
// (docs/checkpoints.md, "Methods"):
//
//   checkpoint/list    {sessionID}                              → {sessionID, checkpoints, evicted?}
//   checkpoint/diff    {sessionID, callID | messageID | range}  → {diff, files, truncated?, outputPath?}
//   checkpoint/restore {sessionID, callID | messageID}          → {checkpoint, restored}
//   checkpoint/redo    {sessionID}                              → {checkpoint, restored}
#pragma once

#include "core/checkpoint/checkpoint_manifest.h"
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

/// Which of a session's checkpoints a request means: those of one call, of one message, or a
/// range of checkpoint ids (both ends included). Restore takes a call or a message only.
struct CheckpointSelection {
  std::string sessionID;
  std::optional<std::string> callID, messageID;
  std::optional<std::uint64_t> from, to; ///< range.from / range.to
};

/// Reads {sessionID, callID | messageID | range: {from, to}}; exactly one selector when
/// `selectorRequired` (`allowRange`: range is one). Throws protocol::ParamsError.
CheckpointSelection readCheckpointSelection(const json& params, bool selectorRequired, bool allowRange);

/// One checkpoint as checkpoint/list shows it: {id, kind, messageID, callID, tool, started,
/// finished, changes: [{path, change, from?, sizeBefore?, sizeAfter?, restorable}], concurrent?,
/// note?, of?}.
json checkpointSummaryJson(const core::Checkpoint& checkpoint);

/// The answer of a restore or redo: {checkpoint, restored: [paths]}.
json restoreResultJson(std::uint64_t checkpoint, const std::vector<std::string>& restored);

} // namespace toold::daemon
