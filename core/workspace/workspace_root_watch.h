// Watching the workspace folder's name, so that the moved-root check costs no system call. Every
// path resolution asks whether the workspace folder's name still leads to the folder toold holds
// (workspaceRootMoved): one `stat` of the whole name, about a third of a small read's file system
// calls. The name can only stop leading there when the folder or a folder above it is renamed or
// removed, and inotify reports exactly that (IN_MOVE_SELF, IN_DELETE_SELF) on each watched folder.
//
// So the folder and each folder above it are watched, on toold's loop; once the watch is set and
// one `stat` has seen the name lead to the held folder, WorkspaceRoot::watchedInPlace is set and
// the check is free. Any event at all (a move, a removal, an unmount, the event queue overflowing)
// clears it for good, and every check after that stats the name again as before. The event is
// queued by the rename itself, before it returns, and the loop clears the flag within microseconds;
// a request can only slip between the two if it was resolved in the same microseconds as the
// rename, which the `stat` alone could not order either. What inotify does not report is a file
// system mounted over the folder or one above it (which takes root, and is outside what toold
// guards against: docs/security.md).
//
// Where inotify is not available (no watches left, a kernel without it), nothing is watched and
// every check stats the name.
#pragma once

#include "core/workspace/workspace_root.h"

#include <boost/asio/io_context.hpp>

#include <memory>

namespace toold::core {

/// Starts watching `root` on `io` (see the file comment); the watch lasts as long as the returned
/// handle, or until an event ends it. Null (and nothing watched) when it cannot be set up or the
/// name no longer leads to the held folder.
std::shared_ptr<void> watchWorkspaceRoot(boost::asio::io_context& io, std::shared_ptr<const WorkspaceRoot> root);

} // namespace toold::core
