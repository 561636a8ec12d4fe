// The call pipeline's hooks for checkpoints: a recorder begun before a call that may change the
// workspace, finished once the tool is done (core/checkpoint/call_recorder.h). A tool whose
// annotations say it only reads (readOnlyHint: the read-only built-ins, MCP tools marked so)
// gets none: no mark, no manifest, nothing on its path.
#pragma once

#include "core/base/location.h"
#include "core/tools/tool_registry.h"
#include "protocol/tool_messages.h"

#include <memory>

namespace toold::core {

class CallRecorder;

/// The call's recorder; null when the Location keeps no checkpoints or the tool is read-only.
std::shared_ptr<CallRecorder> startCallCheckpoint(const Location* location, const RegisteredTool& tool,
                                                  const protocol::CallParams& params);

/// After the tool finished: the checkpoint written when the call changed something.
void finishCallCheckpoint(const std::shared_ptr<CallRecorder>& recorder);

} // namespace toold::core
