// What the checkpoint/ methods and the tools for MCP hosts (`changes`, `undo`) do alike, over the
// Location's checkpoint book (docs/checkpoints.md): list a session's checkpoints, diff a call, a
// message or a range of them, restore the paths a session changed from a call or message on
// (the newest call still standing when none is named), and redo the last restore. Each says why
// when it cannot; the methods answer that as a JSON-RPC error, the tools as a failure.
#pragma once

#include "core/checkpoint/checkpoint_manifest.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace toold::core {
class CheckpointBook;
class ToolService;
} // namespace toold::core

namespace toold::builtins {

using nlohmann::json;

/// Which of a session's checkpoints are meant: those of one call, of one message, or a range of
/// checkpoint ids (both ends included); none of them: all (a diff), or the newest call still
/// standing (a restore).
struct CheckpointPick {
  std::string sessionID;
  std::optional<std::string> callID, messageID;
  std::optional<std::uint64_t> from, to;
};

/// Why nothing was shown or changed.
struct CheckpointRefusal {
  /// Paths changed outside the session since (a person's edit): named in `conflicts`. Otherwise
  /// `reason` says which: off, unknownSession, unknownCheckpoint, evicted, nothingToRedo,
  /// unrestorable, changed, failed.
  bool conflict = false;
  std::string reason;
  std::string message;
  std::vector<std::string> conflicts;
};

template <typename T> using CheckpointAnswer = std::variant<T, CheckpointRefusal>;

/// The refusal every action gives when checkpoints are off.
CheckpointRefusal checkpointsOff();

/// One checkpoint as checkpoint/list shows it: {id, kind, messageID, callID, tool, started,
/// finished, changes: [{path, change, from?, sizeBefore?, sizeAfter?, restorable}], concurrent?,
/// note?, of?}.
json checkpointSummaryJson(const core::Checkpoint& checkpoint);

/// {sessionID, checkpoints: [summary], evicted?}: an unknown session lists none.
json listCheckpoints(const core::CheckpointBook& book, const std::string& sessionID);

/// {diff, files, truncated?, outputPath?}: the diff bounded like a tool's answer, the whole text
/// kept in the tool-output folder.
CheckpointAnswer<json> diffCheckpoints(core::ToolService& tools, const CheckpointPick& pick);

/// Restores (or, with `redo`, undoes the session's last restore) under the path locks of the
/// paths it changes; `done` gets {checkpoint, restored: [paths]} — on the thread that released
/// the locks, or at once. `method` names the checkpoint that records it.
void restoreCheckpoints(core::ToolService& tools, const CheckpointPick& pick, bool redo, const std::string& method,
                        std::function<void(CheckpointAnswer<json>)> done);

} // namespace toold::builtins
