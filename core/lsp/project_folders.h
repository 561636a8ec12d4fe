// The folders a file's project settings are looked for in: from the file's own folder up to the
// workspace, never above it — a marker or a formatter's configuration outside the workspace
// belongs to another project, or to no project at all.
#pragma once

#include <filesystem>
#include <vector>

namespace toold::core {

/// `path` lexically normal and without a trailing separator, so folders compare equal.
std::filesystem::path normalFolder(const std::filesystem::path& path);

/// The folders from `file`'s (relative to `workspace` when relative) up to `workspace`, nearest
/// first, the workspace last; just the workspace when the file is not inside it.
std::vector<std::filesystem::path> foldersUpToWorkspace(const std::filesystem::path& file,
                                                        const std::filesystem::path& workspace);

} // namespace toold::core
