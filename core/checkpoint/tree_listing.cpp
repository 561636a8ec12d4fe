#include "core/checkpoint/tree_listing.h"

#include "core/base/unique_fd.h"
#include "core/checkpoint/relative_folder.h"
#include "core/walk/walker.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <list>
#include <mutex>
#include <sys/stat.h>

namespace toold::core {

bool stampMatches(const FileRecord& record, const PathStamp& stamp) {
  if (record.kind != stamp.kind || record.mode != stamp.mode) return false;
  if (record.kind == EntryKind::Folder) return true;
  return record.size == stamp.size && record.mtimeNanoseconds == stamp.mtimeNanoseconds && record.inode == stamp.inode;
}

bool operator==(const PathStamp& a, const PathStamp& b) {
  return a.kind == b.kind && a.mode == b.mode && a.size == b.size && a.mtimeNanoseconds == b.mtimeNanoseconds &&
         a.inode == b.inode;
}

namespace {

// The stamp as a record keeps it: a folder has no size.
std::optional<PathStamp> stampFrom(const struct stat& status) {
  PathStamp stamp;
  stamp.mode = status.st_mode & 07777;
  stamp.inode = static_cast<std::uint64_t>(status.st_ino);
  stamp.mtimeNanoseconds = static_cast<std::int64_t>(status.st_mtim.tv_sec) * 1'000'000'000 + status.st_mtim.tv_nsec;
  if (S_ISDIR(status.st_mode)) stamp.kind = EntryKind::Folder;
  else if (S_ISLNK(status.st_mode)) {
    stamp.kind = EntryKind::Symlink;
    stamp.size = static_cast<std::uint64_t>(status.st_size);
  } else if (S_ISREG(status.st_mode)) stamp.size = static_cast<std::uint64_t>(status.st_size);
  else return std::nullopt; // a fifo, socket or device: nothing a checkpoint keeps
  return stamp;
}

} // namespace

std::optional<PathStamp> stampOf(int root, const std::string& path) {
  OpenedFolder folder = openFolderOf(root, path);
  if (folder.fd < 0) return std::nullopt;
  struct stat status {};
  const bool seen = ::fstatat(folder.fd, folder.leaf.c_str(), &status, AT_SYMLINK_NOFOLLOW) == 0;
  ::close(folder.fd);
  if (!seen) return std::nullopt;
  return stampFrom(status);
}

TreeListing listTree(int root, const std::filesystem::path& rootPath, const std::string& folder,
                     const ListingOptions& options, const FolderVisitor& onFolder,
                     const CancellationToken& cancellation) {
  TreeListing listing;
  UniqueFd start;
  if (folder.empty()) start.reset(::fcntl(root, F_DUPFD_CLOEXEC, 0));
  else {
    OpenedFolder parent = openFolderOf(root, folder);
    if (parent.fd < 0) {
      listing.errors.push_back(parent.error);
      return listing;
    }
    start.reset(::openat(parent.fd, parent.leaf.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    ::close(parent.fd);
  }
  if (!start) {
    listing.errors.push_back((folder.empty() ? std::string("the workspace") : folder) + ": " + std::strerror(errno));
    return listing;
  }

  WalkOptions walk;
  walk.threads = options.threads;
  walk.respectIgnores = options.respectIgnores;
  walk.ignore = options.ignore;
  if (walk.ignore.ceiling.empty()) walk.ignore.ceiling = rootPath;
  walk.rootDirectory = start.get();
  const std::string prefix = folder.empty() ? std::string() : folder + "/";

  // One list of paths per walking thread, joined at the end: no lock per entry.
  std::mutex listsMutex;
  std::list<std::vector<ListedPath>> lists;
  auto result = walkTree(
      folder.empty() ? rootPath : rootPath / folder, walk,
      [&]() {
        std::vector<ListedPath>* mine;
        {
          std::lock_guard lock(listsMutex);
          mine = &lists.emplace_back();
        }
        return [&, mine](const WalkEntry& entry) {
          struct stat status {};
          const std::string name(entry.name());
          if (::fstatat(entry.folderFd, name.c_str(), &status, AT_SYMLINK_NOFOLLOW) != 0)
            return WalkDecision::Continue; // gone meanwhile: its event says so
          auto stamp = stampFrom(status);
          if (!stamp) return WalkDecision::Continue;
          ListedPath listed{prefix + entry.relative, *stamp};
          if (stamp->kind == EntryKind::Folder && onFolder) {
            UniqueFd held(::openat(entry.folderFd, name.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
            if (held) onFolder(listed.path, held.get());
          }
          mine->push_back(std::move(listed));
          return WalkDecision::Continue;
        };
      },
      cancellation);
  for (auto& list : lists) {
    if (listing.paths.empty()) listing.paths = std::move(list);
    else listing.paths.insert(listing.paths.end(), std::make_move_iterator(list.begin()), std::make_move_iterator(list.end()));
  }
  listing.errors = std::move(result.errors);
  listing.cancelled = result.cancelled;
  return listing;
}

} // namespace toold::core
