#include "core/tools/call_checkpoint.h"

#include "core/checkpoint/call_recorder.h"

namespace toold::core {

std::shared_ptr<CallRecorder> startCallCheckpoint(const Location* location, const RegisteredTool& tool,
                                                  const protocol::CallParams& params) {
  if (!location || !location->checkpoints) return nullptr;
  const json& annotations = tool.annotations();
  if (annotations.is_object()) {
    const auto readOnly = annotations.find("readOnlyHint");
    if (readOnly != annotations.end() && readOnly->is_boolean() && readOnly->get<bool>()) return nullptr;
  }
  return location->checkpoints->startCall(CallIdentity{params.sessionID, params.messageID, params.callID, tool.name});
}

void finishCallCheckpoint(const std::shared_ptr<CallRecorder>& recorder) {
  if (recorder) recorder->finish();
}

} // namespace toold::core
