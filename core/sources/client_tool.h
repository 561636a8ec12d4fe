// The `client` handler: a registered tool the client runs itself. toold sends it a `tool/execute`
// request and turns the answer into the call's result; a JSON-RPC error answer is a ToolFailure
// carrying its message, so the model sees what went wrong.
#pragma once

#include "core/base/client_channel.h"
#include "core/tools/tool.h"

#include <memory>

namespace toold::core {

/// Runs the client's tool `name` (the effective name it registered it under): a `tool/execute`
/// request, its answer read as the call's completion.
void executeOnClient(ClientChannel& client, const std::string& name, json input, const ToolContext& context,
                     ToolDone done);

/// The tool's execute: guarded by its permission (`ownAction`, empty: its name), then run on the
/// client; one closure holding the name once.
ToolExecute makeClientToolExecute(std::shared_ptr<ClientChannel> client, std::string name, std::string ownAction);

/// Reads `{output?, content?, metadata?}` (or a bare string: the content) as a tool's result;
/// anything else is a ToolDefect naming `source`. Shared by the client and command handlers.
ToolCompletion parseToolResult(const json& value, std::string_view source);

} // namespace toold::core
