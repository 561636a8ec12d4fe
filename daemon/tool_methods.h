// Binds the native tool methods — register, unregister, snapshot, release, call, hooks/subscribe —
// to the tool service, and turns its answers into replies and notifications.
#pragma once

#include <chrono>
#include <functional>
#include <optional>

namespace toold::core {
class ToolService;
}

namespace toold::daemon {

class Server;

/// Runs its argument when a snapshot may be taken: at once, or once the MCP servers still
/// starting are connected or failed (bounded by their start-up timeout).
using SnapshotGate = std::function<void(std::function<void()> ready)>;

/// `codemodeSnapshot` runs (on the loop) after a snapshot that uses Code Mode: the first `execute`
/// usually follows within seconds, so its worker can start now.
/// `foregroundLimit`: how long a `call` may run before a long command answers from the background
/// (ToolContext::foregroundLimit); nullopt: as long as it takes.
void bindToolMethods(Server& server, core::ToolService& tools, SnapshotGate snapshotGate = {},
                     std::function<void()> codemodeSnapshot = {},
                     std::optional<std::chrono::milliseconds> foregroundLimit = std::nullopt);

} // namespace toold::daemon
