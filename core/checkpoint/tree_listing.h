// Listing a workspace's kept paths with their stamps — kind, mode, size, modification time, inode —
// by one walk (core/walk: readdir and one fstatat per entry, relative to its open folder). It sets
// up the watches (each folder handed to the caller before it is read, so a change made after the
// listing saw a folder is queued as an event), and it is the stamp scan that finds changes when
// events were lost: a path whose stamp differs from its baseline record's has changed.
#pragma once

#include "core/base/cancellation.h"
#include "core/checkpoint/file_record.h"
#include "core/walk/ignore_rules.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace toold::core {

struct PathStamp {
  EntryKind kind = EntryKind::File;
  mode_t mode = 0;
  std::uint64_t size = 0;
  std::int64_t mtimeNanoseconds = 0;
  std::uint64_t inode = 0;
};

bool operator==(const PathStamp& a, const PathStamp& b);

/// The stamp of `path` below the folder `root` now; nullopt when nothing is there or it cannot be seen.
std::optional<PathStamp> stampOf(int root, const std::string& path);

/// Whether `record` is, by its stamp, what is there now. A folder's modification time changes with
/// its entries, which are judged on their own: a folder matches by kind and mode.
bool stampMatches(const FileRecord& record, const PathStamp& stamp);

struct ListedPath {
  std::string path; ///< workspace-relative
  PathStamp stamp;
};

struct TreeListing {
  std::vector<ListedPath> paths;   ///< in no particular order
  std::vector<std::string> errors; ///< what could not be read
  bool cancelled = false;
};

struct ListingOptions {
  IgnoreOptions ignore;
  bool respectIgnores = true;
  std::size_t threads = 2;
};

/// Called with each kept folder (workspace-relative) and a descriptor of it, before the walk reads
/// it; from any of the walk's threads.
using FolderVisitor = std::function<void(const std::string& relative, int folderFd)>;

/// Every kept path below `folder` ("" for the whole workspace; `folder` itself is not listed) of
/// the workspace open as `root` at `rootPath`.
TreeListing listTree(int root, const std::filesystem::path& rootPath, const std::string& folder,
                     const ListingOptions& options, const FolderVisitor& onFolder,
                     const CancellationToken& cancellation);

} // namespace toold::core
