#include "core/workspace/workspace_root.h"

#include "core/workspace/workspace_paths.h"

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace toold::core {

namespace {

/// Whether the kernel has openat2: unknown until the first call, then known for good (a kernel
/// without it answers ENOSYS to every call, and asking again costs a system call each time).
std::atomic<bool> openat2Missing{false};

/// openat2 beneath `root`; -1 with errno ENOSYS where the kernel (or the headers) have none.
int openat2Beneath(int root, const char* relative, int flags) {
#ifdef SYS_openat2
  if (!openat2Missing.load(std::memory_order_relaxed)) {
    struct open_how how {};
    how.flags = static_cast<std::uint64_t>(flags);
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
    const int fd = static_cast<int>(::syscall(SYS_openat2, root, relative, &how, sizeof how));
    if (fd >= 0 || errno != ENOSYS) return fd;
    openat2Missing.store(true, std::memory_order_relaxed);
  }
#else
  (void)root;
  (void)relative;
  (void)flags;
#endif
  errno = ENOSYS;
  return -1;
}

/// The same walk by hand: every folder opened from the one before with O_NOFOLLOW, from the root.
int openByComponents(int root, std::string_view relative, int flags) {
  UniqueFd current;
  int at = root;
  std::size_t start = 0;
  while (true) {
    while (start < relative.size() && relative[start] == '/') ++start;
    std::size_t end = relative.find('/', start);
    if (end == std::string_view::npos) end = relative.size();
    std::size_t next = end;
    while (next < relative.size() && relative[next] == '/') ++next;
    const bool last = next >= relative.size();
    std::string name(relative.substr(start, end - start));
    if (name.empty()) name = "."; // the root itself
    if (name == "..") {
      errno = EXDEV; // as RESOLVE_BENEATH answers a climb out
      return -1;
    }
    if (last) return ::openat(at, name.c_str(), flags | O_NOFOLLOW);
    const int fd = ::openat(at, name.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return -1;
    current.reset(fd);
    at = current.get();
    start = next;
  }
}

} // namespace

std::shared_ptr<const WorkspaceRoot> openWorkspaceRoot(const std::filesystem::path& directory) {
  UniqueFd folder(::open(directory.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!folder) return nullptr;
  struct stat held {};
  if (::fstat(folder.get(), &held) != 0) return nullptr;
  auto root = std::make_shared<WorkspaceRoot>();
  root->directory = directory;
  root->folder = std::move(folder);
  root->device = static_cast<std::uint64_t>(held.st_dev);
  root->inode = static_cast<std::uint64_t>(held.st_ino);
  return root;
}

std::optional<std::string> workspaceRootMoved(const WorkspaceRoot& root) {
  if (root.watchedInPlace.load(std::memory_order_acquire)) return std::nullopt;
  struct stat named {};
  if (::stat(root.directory.c_str(), &named) == 0 && static_cast<std::uint64_t>(named.st_dev) == root.device &&
      static_cast<std::uint64_t>(named.st_ino) == root.inode)
    return std::nullopt;
  return "The workspace folder " + root.directory.string() +
         " is no longer the folder toold was started in (it was moved, removed or replaced), so toold does not act "
         "on paths there. Restart toold in the workspace.";
}

std::optional<std::string_view> belowRoot(const WorkspaceRoot& root, std::string_view canonical) {
  return textBelow(root.directory.native(), canonical);
}

void simulateMissingOpenat2(bool missing) { openat2Missing.store(missing, std::memory_order_relaxed); }

int openBeneathRoot(const WorkspaceRoot& root, std::string_view relative, int flags) {
  const std::string path = relative.empty() ? std::string(".") : std::string(relative);
  const int fd = openat2Beneath(root.folder.get(), path.c_str(), flags);
  if (fd >= 0 || errno != ENOSYS) return fd;
  return openByComponents(root.folder.get(), relative, flags);
}

} // namespace toold::core
