// The REPL's face of checkpoints (docs/checkpoints.md): the requests `:changes`, `:diff`, `:undo`
// and `:redo` send for the REPL's session, and how the answers of the checkpoint/ methods read in
// text mode — a line per checkpoint, the diff itself, what a restore put back or which paths a
// person changed since.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace toold::repl {

using nlohmann::json;

struct CheckpointRequest {
  std::string method;
  json params;
};

/// `:changes`: checkpoint/list of the session.
CheckpointRequest changesRequest(const std::string& sessionID);
/// `:diff [CALL]`: checkpoint/diff of one call, or (no call) of every checkpoint of the session.
CheckpointRequest diffRequest(const std::string& sessionID, const std::optional<std::string>& callID);
/// `:undo [CALL]`: checkpoint/restore of the call, or (no call) of the session's newest call still
/// standing, which toold chooses.
CheckpointRequest undoRequest(const std::string& sessionID, const std::optional<std::string>& callID);
/// `:redo`: checkpoint/redo of the session's last restore.
CheckpointRequest redoRequest(const std::string& sessionID);

/// The text-mode body of a checkpoint/ method's result (the summary line is added by the caller);
/// nullopt when `method` is none of them or the result is not of its shape.
std::optional<std::string> checkpointResultText(const std::string& method, const json& result);

/// The lines that make a refused restore's data clear: the paths changed outside the session
/// (-32010's data.conflicts). Empty when the data names none.
std::string checkpointConflictText(const json& errorData);

} // namespace toold::repl
