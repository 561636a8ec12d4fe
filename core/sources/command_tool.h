// The `command` handler: a registered tool that is a program. toold runs `argv` in its own process
// group with the input JSON on stdin; stdout is either a JSON result {output?, content?, metadata?}
// or plain text content; a non-zero exit is a ToolFailure carrying the last 4 KiB of stderr; a
// timeout or a cancellation kills the whole group.
#pragma once

#include <memory>

#include "core/sandbox/command_sandbox.h"
#include "core/tools/tool.h"
#include "protocol/tool_messages.h"

namespace toold::core {

class ProcessRunner;

/// The most stdout a command may print before the call fails: a result larger than this is a
/// runaway, and bounding would cut it to 50 KiB anyway.
inline constexpr std::size_t kCommandStdoutCap = 64 * 1024 * 1024;
inline constexpr std::size_t kCommandStderrTail = 4 * 1024;

ToolExecute makeCommandToolExecute(ProcessRunner& runner, protocol::HandlerSpec handler, std::string name,
                                   std::shared_ptr<const CommandSandbox> sandbox = nullptr);

/// What a command's stdout means: a result object when it is one, else text.
ToolCompletion commandStdoutToResult(const std::string& stdoutData, std::string_view name);

} // namespace toold::core
