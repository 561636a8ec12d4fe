// Binds the native tool methods — register, unregister, snapshot, release, call, hooks/subscribe —
// to the tool service, and turns its answers into replies and notifications.
#pragma once

#include <functional>

namespace toold::core {
class ToolService;
}

namespace toold::daemon {

class Server;

/// `codemodeSnapshot` runs (on the loop) after a snapshot that uses Code Mode: the first `execute`
/// usually follows within seconds, so its worker can start now.
void bindToolMethods(Server& server, core::ToolService& tools, std::function<void()> codemodeSnapshot = {});

} // namespace toold::daemon
