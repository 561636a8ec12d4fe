#include "daemon/checkpoint_wire.h"

#include "core/checkpoint/state_diff.h"
#include "protocol/params_error.h"

#include <algorithm>

namespace toold::daemon {

CheckpointSelection readCheckpointSelection(const json& params, bool selectorRequired, bool allowRange) {
  protocol::ParamsReader reader(params, "");
  CheckpointSelection selection;
  selection.sessionID = reader.requireString("sessionID");
  selection.callID = reader.optionalString("callID");
  selection.messageID = reader.optionalString("messageID");
  if (allowRange && reader.has("range")) {
    protocol::ParamsReader range(reader.require("range"), "range");
    selection.from = range.optionalUnsigned("from");
    selection.to = range.optionalUnsigned("to");
    if (!selection.from || !selection.to) throw protocol::ParamsError("range: expected {\"from\": id, \"to\": id}");
    if (*selection.from > *selection.to) throw protocol::ParamsError("range: from is after to");
  }
  const int selectors = (selection.callID ? 1 : 0) + (selection.messageID ? 1 : 0) + (selection.from ? 1 : 0);
  const char* expected = allowRange ? "one of callID, messageID or range" : "one of callID or messageID";
  if (selectors > 1) throw protocol::ParamsError(std::string("expected only ") + expected);
  if (selectorRequired && selectors == 0) throw protocol::ParamsError(std::string("expected ") + expected);
  return selection;
}

json checkpointSummaryJson(const core::Checkpoint& checkpoint) {
  json changes = json::array();
  for (const auto& change : core::diffStates(checkpoint.before, checkpoint.after)) {
    json entry{{"path", change.path}, {"change", core::changeKindName(change.kind)}};
    if (!change.fromPath.empty()) entry["from"] = change.fromPath;
    // A folder's size is the file system's bookkeeping, not content anyone changed.
    if (change.before && change.before->kind != core::EntryKind::Folder) entry["sizeBefore"] = change.before->size;
    if (change.after && change.after->kind != core::EntryKind::Folder) entry["sizeAfter"] = change.after->size;
    const auto& unrestorable = checkpoint.unrestorable;
    const bool restorable = std::find(unrestorable.begin(), unrestorable.end(), change.path) == unrestorable.end() &&
                            std::find(unrestorable.begin(), unrestorable.end(), change.fromPath) == unrestorable.end() &&
                            !(change.before && change.before->hashOnly);
    entry["restorable"] = restorable;
    changes.push_back(std::move(entry));
  }
  json summary{{"id", checkpoint.sequence},
               {"kind", core::checkpointKindName(checkpoint.kind)},
               {"messageID", checkpoint.messageID},
               {"callID", checkpoint.callID},
               {"tool", checkpoint.tool},
               {"started", checkpoint.startedMs},
               {"finished", checkpoint.finishedMs},
               {"changes", std::move(changes)}};
  if (checkpoint.concurrent) summary["concurrent"] = true;
  if (!checkpoint.note.empty()) summary["note"] = checkpoint.note;
  if (checkpoint.of != 0) summary["of"] = checkpoint.of;
  return summary;
}

json restoreResultJson(std::uint64_t checkpoint, const std::vector<std::string>& restored) {
  return json{{"checkpoint", checkpoint}, {"restored", restored}};
}

} // namespace toold::daemon
