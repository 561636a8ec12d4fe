// Opening the folder of a workspace-relative path one component at a time, each with O_NOFOLLOW
// from the one before, starting at the workspace's descriptor: a folder swapped for a symlink is
// refused, never followed out of the workspace. The checkpoint room sits below core/workspace (it
// is used by it), so it keeps this small walk of its own rather than HeldLocation.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace toold::core {

/// A relative path is well-formed when it is non-empty, not absolute, and has no empty, "." or ".."
/// component.
bool isWellFormedRelativePath(std::string_view path);

struct OpenedFolder {
  int fd = -1;         ///< the folder holding the leaf; the caller closes it
  std::string leaf;    ///< the path's last component
  std::string error;   ///< set when fd is -1
  int errorNumber = 0; ///< the system's reason then (ENOENT, ENOTDIR: a folder on the way is missing)
};

/// Opens the folder of `path` below `root`. With `created`, missing folders are made (0755, subject
/// to the umask) and their paths appended, outermost first, so a caller can remove them again.
OpenedFolder openFolderOf(int root, std::string_view path, std::vector<std::string>* created = nullptr);

} // namespace toold::core
