// Binds the language servers' methods for runners: `lsp/status` (the servers configured, found
// and running), `lsp/diagnostics` (a file's current diagnostics, or every file with errors), and
// the `lsp/diagnostics` notification when the diagnostics of a file a tool touched change.
#pragma once

namespace toold::core {
class ToolService;
}

namespace toold::daemon {

class Server;

void bindLspMethods(Server& server, core::ToolService& tools);

} // namespace toold::daemon
