// Read-only islands in a writable workspace. Landlock only ever adds rights to a hierarchy, so it
// cannot keep `.git` read-only below a workspace the command may write. A mount can: the launcher
// enters a mount namespace of its own (with a user namespace when it is not root, which Linux
// allows unprivileged), bind-mounts each protected path onto itself and remounts that bind
// read-only. Only the command sees the change; it cannot undo it, because Landlock refuses every
// mount operation to a restricted process, and in a user namespace the original mounts are locked.
#pragma once

#include <string>
#include <vector>

namespace toold::sandbox_launch {

/// Enters a new mount namespace (and a user namespace mapping the caller's uid and gid to
/// themselves, unless it is root), with mounts no longer propagating back. Returns an empty string
/// or why it could not.
std::string enterMountNamespace();

/// Makes each of `paths` read-only (those that do not exist are skipped), then each of `rebinds`
/// writable again (a folder below a protected one), then re-enters the working directory so that
/// it, too, is seen through the new mounts. Call after enterMountNamespace.
std::string protectPaths(const std::vector<std::string>& paths, const std::vector<std::string>& rebinds);

} // namespace toold::sandbox_launch
