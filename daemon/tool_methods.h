// Binds the native tool methods — register, unregister, snapshot, release, call, hooks/subscribe —
// to the tool service, and turns its answers into replies and notifications.
#pragma once

namespace toold::core {
class ToolService;
}

namespace toold::daemon {

class Server;

void bindToolMethods(Server& server, core::ToolService& tools);

} // namespace toold::daemon
