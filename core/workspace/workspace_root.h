// The workspace folder, held by a descriptor for toold's life. Paths are checked as text (a
// symlink-free canonical path inside Location::directory), but the name of the workspace folder
// itself may be made to lead elsewhere at any moment: one renameat2(RENAME_EXCHANGE) from a
// background shell swaps it with an outside folder. A walk from `/` that starts after such a swap
// lands in the outside folder, however carefully it refuses symlinks.
//
// So the folder is opened once, at start-up, and every path below it is opened from that
// descriptor with the rest of the path, never from `/`: whatever the folder's name now leads to,
// what is reached is in the folder toold started in. Its name leading elsewhere is still reported
// (workspaceRootMoved), so the tools refuse rather than work on in a folder that has moved away.
#pragma once

#include "core/base/unique_fd.h"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace toold::core {

/// The workspace folder as toold started in it (Location::root).
struct WorkspaceRoot {
  std::filesystem::path directory; ///< canonical, as Location::directory; for containment and messages
  UniqueFd folder;                 ///< O_PATH | O_DIRECTORY, opened once
  /// The held folder's identity, taken by fstat when it was opened: a descriptor's inode never
  /// changes, so looking at it again on every path resolution only cost a system call.
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  /// True while a watch (core/workspace/workspace_root_watch.h) on the folder and every folder
  /// above it has seen none of them moved or removed since it saw the name lead here: the name
  /// still leads to the held folder, and workspaceRootMoved needs no look at it. Once false, it
  /// stays false.
  mutable std::atomic<bool> watchedInPlace{false};
};

/// Opens the canonical `directory` as the workspace root and takes its identity; null when it
/// cannot be opened or looked at (the file tools then hold paths from `/`, as without a root).
std::shared_ptr<const WorkspaceRoot> openWorkspaceRoot(const std::filesystem::path& directory);

/// The refusal when `root.directory` no longer names the held folder (renamed away, removed, or
/// exchanged with another folder); nullopt while it does. One `stat` of the name, compared with the
/// identity taken at open; none while the root is watched in place (WorkspaceRoot::watchedInPlace).
std::optional<std::string> workspaceRootMoved(const WorkspaceRoot& root);

/// `canonical` relative to the root, without a leading slash (empty for the root itself), when it
/// is the root or below it; nullopt otherwise. Both are compared element by element.
std::optional<std::string_view> belowRoot(const WorkspaceRoot& root, std::string_view canonical);

/// Opens `relative` (empty, or names with no empty, `.` or `..` one) beneath the root with
/// `flags`, following no symlink: one openat2 with RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
/// RESOLVE_NO_MAGICLINKS, or where the kernel has no openat2, folder by folder from the root with
/// O_NOFOLLOW. -1 with errno set on any failure (a symlink met gives ELOOP or ENOTDIR).
int openBeneathRoot(const WorkspaceRoot& root, std::string_view relative, int flags);

/// Makes openBeneathRoot walk by hand, as on a kernel without openat2 (for tests).
void simulateMissingOpenat2(bool missing);

} // namespace toold::core
