#include "daemon/checkpoint_wire.h"

#include "protocol/params_error.h"


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

protocol::RpcError checkpointError(const builtins::CheckpointRefusal& refusal) {
  if (refusal.conflict) return protocol::RpcError{kCheckpointConflict, refusal.message, json{{"conflicts", refusal.conflicts}}};
  return protocol::RpcError{kCheckpointUnavailable, refusal.message, json{{"reason", refusal.reason}}};
}

} // namespace toold::daemon
