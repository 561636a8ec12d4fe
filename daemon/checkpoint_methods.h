// Binds the checkpoint methods (docs/checkpoints.md): `checkpoint/list` (a session's checkpoints
// with their changed paths), `checkpoint/diff` (what a call, a message or a range of checkpoints
// changed, as a unified diff bounded like any output), `checkpoint/restore` (the paths a session
// changed from a call or message on, back to before it, refused whole when a person changed one
// since), and `checkpoint/redo` (undoing the session's last restore). Wire shapes:
// daemon/checkpoint_wire.h.
#pragma once

namespace toold::core {
class ToolService;
}

namespace toold::daemon {

class Server;

void bindCheckpointMethods(Server& server, core::ToolService& tools);

} // namespace toold::daemon
