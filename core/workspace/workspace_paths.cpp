// Resolving tool paths component by component, as the kernel would, but without requiring the
// path to exist: realpath() of the whole path fails for a file about to be created and for a
// dangling symlink, and falling back to lexical handling there is exactly how escapes get through.
#include "core/workspace/workspace_paths.h"

#include "core/base/unique_fd.h"
#include "core/workspace/workspace_root.h"

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <system_error>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <linux/openat2.h>
#include <pwd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace toold::core {

namespace {

/// The kernel's own limit (MAXSYMLINKS): a path it could open never needs more.
constexpr int kMaxSymlinkExpansions = 40;

/// The home directory: $HOME, else the password database entry of the current user; empty when
/// neither knows one.
std::string homeDirectory() {
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') return home;
  // getpwuid_r, not getpwuid: tools resolve paths on several worker threads at once.
  long suggested = ::sysconf(_SC_GETPW_R_SIZE_MAX);
  std::vector<char> buffer(suggested > 0 ? static_cast<std::size_t>(suggested) : 16384);
  passwd entry{};
  passwd* found = nullptr;
  while (::getpwuid_r(::getuid(), &entry, buffer.data(), buffer.size(), &found) == ERANGE) {
    buffer.resize(buffer.size() * 2);
  }
  if (found == nullptr || found->pw_dir == nullptr) return {};
  return found->pw_dir;
}

/// `~` alone or `~/...` with the home directory in front; anything else unchanged.
std::string expandHome(std::string_view path) {
  if (path != "~" && !path.starts_with("~/")) return std::string(path);
  std::string home = homeDirectory();
  if (home.empty()) {
    throw PathError("Cannot expand '" + std::string(path) + "': no home directory is known");
  }
  return home + std::string(path.substr(1));
}

/// Pushes the components of `path` onto `pending` so that the first component is popped first.
void pushComponents(std::string_view path, std::vector<std::string>& pending) {
  std::size_t end = path.size();
  while (end > 0) {
    std::size_t slash = path.rfind('/', end - 1);
    std::size_t start = slash == std::string_view::npos ? 0 : slash + 1;
    if (end > start) pending.emplace_back(path.substr(start, end - start));
    if (slash == std::string_view::npos) break;
    end = slash;
  }
}

/// The parent of an absolute path held as text without a trailing slash; `/` is its own parent.
void dropLastComponent(std::string& resolved) {
  std::size_t slash = resolved.rfind('/');
  resolved.resize(slash == 0 || slash == std::string::npos ? 1 : slash);
}

std::string joinComponent(const std::string& resolved, std::string_view component) {
  std::string joined = resolved;
  if (joined.back() != '/') joined += '/';
  joined += component;
  return joined;
}

/// The target of the symlink `name` in `folder` (`link` is its path, for messages), read whole
/// however long it is (/proc links report a size of 0, so lstat's st_size cannot be trusted for
/// the buffer).
std::string readSymlinkAt(int folder, const std::string& name, const std::string& link, const fs::path& given) {
  std::vector<char> buffer(4096);
  while (true) {
    ssize_t length = ::readlinkat(folder, name.c_str(), buffer.data(), buffer.size());
    if (length < 0) {
      throw PathError("Cannot resolve '" + given.string() + "': cannot read the symbolic link '" +
                      link + "': " + std::generic_category().message(errno));
    }
    auto size = static_cast<std::size_t>(length);
    if (size < buffer.size()) return std::string(buffer.data(), size);
    buffer.resize(buffer.size() * 2);
  }
}

/// `absolute` with every symlink, `.` and `..` resolved. Each component is lstat'ed in turn: a
/// symlink's target is spliced in front of the components still to come (POSIX semantics, so a
/// `..` after a link leaves the link's target, not the link); a component that cannot be looked
/// at (missing, under a non-directory, unreadable) is appended as written and resolution goes on
/// with the next one, still lstat'ing, so `missing/../link` follows `link` all the same.
///
/// Components are looked at from the descriptor of the folder resolved so far, never by the path
/// resolved so far: by path, each look walked the whole path again, which made a path 3,000
/// folders deep take seconds (and one past PATH_MAX could not be looked at at all). `status`
/// receives the resolved path's status when it exists.
std::string resolveComponents(const fs::path& absolute, std::optional<struct stat>& status) {
  std::vector<std::string> pending; // the next component at the back
  pushComponents(absolute.native(), pending);
  std::string resolved = "/";
  UniqueFd folder(::open("/", O_PATH | O_DIRECTORY | O_CLOEXEC)); // `resolved`, or its last folder
  std::size_t unreachable = 0; // components taken as written below `folder`
  std::optional<struct stat> leaf; // the last component's status, when it was looked at
  int expansions = 0;
  while (!pending.empty()) {
    std::string component = std::move(pending.back());
    pending.pop_back();
    if (component == ".") continue;
    if (component == "..") {
      dropLastComponent(resolved);
      leaf.reset();
      if (unreachable > 0) {
        --unreachable;
      } else if (folder) {
        // The folder is symlink-free, so its parent is the lexical one ("/" its own).
        folder = UniqueFd(::openat(folder.get(), "..", O_PATH | O_DIRECTORY | O_CLOEXEC));
      }
      continue;
    }
    std::string candidate = joinComponent(resolved, component);
    struct stat info {};
    // Any failure, not only ENOENT: a component we cannot look at is taken as written. Nothing
    // running as us can pass through it either, and later components are still lstat'ed, so a
    // `..` that climbs back out reaches real, resolved directories again.
    const bool looked = unreachable == 0 && folder &&
                        ::fstatat(folder.get(), component.c_str(), &info, AT_SYMLINK_NOFOLLOW) == 0;
    if (!looked || !S_ISLNK(info.st_mode)) {
      resolved = std::move(candidate);
      UniqueFd next;
      if (looked && S_ISDIR(info.st_mode))
        next = UniqueFd(::openat(folder.get(), component.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
      if (next) {
        folder = std::move(next);
        leaf.reset();
      } else {
        ++unreachable;
        leaf = looked ? std::optional<struct stat>(info) : std::nullopt;
      }
      continue;
    }
    if (++expansions > kMaxSymlinkExpansions) {
      throw PathError("Cannot resolve '" + absolute.string() +
                      "': too many levels of symbolic links (a symlink loop?)");
    }
    std::string target = readSymlinkAt(folder.get(), component, candidate, absolute);
    if (target.starts_with('/')) {
      resolved = "/";
      folder = UniqueFd(::open("/", O_PATH | O_DIRECTORY | O_CLOEXEC));
    }
    pushComponents(target, pending);
  }
  struct stat own {};
  if (unreachable == 0 && folder && ::fstat(folder.get(), &own) == 0) status = own;
  else if (unreachable == 1 && leaf) status = leaf;
  return resolved;
}

/// The status of `path` when it exists and no component of it is a symlink, found in one call
/// (openat2 refusing every symlink, then fstat) instead of an lstat per component: the path is
/// then its own resolution. nullopt for anything else, which resolveComponents works out.
std::optional<struct stat> statWithoutSymlinks(const std::string& path) {
  const int fd = openWithoutSymlinks(path, O_PATH | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  struct stat status {};
  const bool known = ::fstat(fd, &status) == 0;
  ::close(fd);
  if (known) return status;
  return std::nullopt;
}

/// `<data-dir>/tool-output`, resolved like any path, once per data dir: it is asked about on every
/// call that names a path, and resolving it costs an lstat per component. toold made the folder
/// itself, so what it resolved to at the first call is what it is. Returned as held (entries are
/// never removed): a copy of a path object cost several allocations per call.
const fs::path& toolOutputFolder(const fs::path& dataDir) {
  static std::mutex mutex;
  static std::map<std::string, fs::path, std::less<>> resolved;
  std::lock_guard lock(mutex);
  if (dataDir.is_absolute())
    if (auto known = resolved.find(dataDir.native()); known != resolved.end()) return known->second;
  const fs::path absolute = dataDir.is_absolute() ? dataDir : fs::absolute(dataDir);
  auto [entry, inserted] = resolved.try_emplace(absolute.string());
  std::optional<struct stat> unused;
  if (inserted) entry->second = resolveComponents(absolute / "tool-output", unused);
  return entry->second;
}

/// The elements of a path as std::filesystem::path iterates them ("/" first for an absolute path,
/// then each name), without the empty one a trailing slash adds; views into the path's text.
class PathElements {
public:
  explicit PathElements(std::string_view path) : rest_(path), rootPending_(path.starts_with('/')) {}

  /// The next element; false after the last.
  bool next(std::string_view& element) {
    if (rootPending_) {
      rootPending_ = false;
      element = "/";
      return true;
    }
    while (rest_.starts_with('/')) rest_.remove_prefix(1);
    if (rest_.empty()) return false;
    const std::size_t end = std::min(rest_.find('/'), rest_.size());
    element = rest_.substr(0, end);
    rest_.remove_prefix(end);
    return true;
  }

  /// What is left after the elements taken so far, without its leading slashes.
  std::string_view rest() const {
    std::string_view rest = rest_;
    while (rest.starts_with('/')) rest.remove_prefix(1);
    return rest;
  }

private:
  std::string_view rest_;
  bool rootPending_;
};

/// Whether `root` holds `candidate` (see pathContains); `below` receives the elements after the
/// root's, as written in `candidate` (empty for the root itself).
bool containsPath(std::string_view root, std::string_view candidate, std::string_view* below) {
  PathElements rootElements(root);
  PathElements candidateElements(candidate);
  std::string_view rootElement;
  std::string_view candidateElement;
  bool any = false;
  while (rootElements.next(rootElement)) {
    any = true;
    if (!candidateElements.next(candidateElement) || candidateElement != rootElement) return false;
  }
  if (below != nullptr) *below = candidateElements.rest();
  return any;
}

} // namespace

int openWithoutSymlinks(const std::string& path, int flags) {
#ifdef SYS_openat2
  struct open_how how {};
  how.flags = static_cast<std::uint64_t>(flags);
  how.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
  return static_cast<int>(::syscall(SYS_openat2, AT_FDCWD, path.c_str(), &how, sizeof how));
#else
  (void)path;
  (void)flags;
  return -1;
#endif
}

namespace {

/// The fast way for `found`: the folder opened by one openat2 refusing every symlink (from the
/// held root when the folder is in it, so a root exchanged meanwhile is not entered), then the
/// leaf looked at in it. False (nothing kept) where the leaf is a symlink or anything fails.
bool resolveThroughFolder(const std::string& path, const WorkspaceRoot* root, ResolvedFolder& found) {
  const std::size_t slash = path.rfind('/');
  const std::string folderPath = slash == 0 ? std::string("/") : path.substr(0, slash);
  constexpr int kFolderFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
  const auto below = root != nullptr ? belowRoot(*root, folderPath) : std::nullopt;
  // A file in the workspace folder itself: the root's own descriptor is that folder, held for
  // toold's life, where opening it again and closing it cost two system calls of a small read's
  // dozen. It is an O_PATH one, which serves what a read does with its folder (openat, fstatat).
  UniqueFd folder = below && below->empty() ? UniqueFd::borrow(root->folder.get())
                    : UniqueFd(below ? openBeneathRoot(*root, *below, kFolderFlags) : openWithoutSymlinks(folderPath, kFolderFlags));
  if (!folder) return false;
  struct stat leaf {};
  if (::fstatat(folder.get(), path.c_str() + slash + 1, &leaf, AT_SYMLINK_NOFOLLOW) == 0) {
    if (S_ISLNK(leaf.st_mode)) return false;
    found.leaf = leaf;
  } else if (errno != ENOENT) {
    return false;
  }
  found.folder = std::move(folder);
  return true;
}

ResolvedPath resolve(std::string_view path, const Location& location, ResolvedFolder* found) {
  if (path.empty()) throw PathError("Path is empty");
  // The system would silently cut the path at the NUL, so what was checked would not be what is
  // opened.
  if (path.find('\0') != std::string_view::npos) throw PathError("Path contains a NUL byte");

  ResolvedPath result;
  fs::path expanded = expandHome(path);
  result.given = expanded.is_absolute() ? std::move(expanded) : location.directory / expanded;
  if (!result.given.is_absolute()) result.given = fs::absolute(result.given);
  std::optional<struct stat> info;
  bool fast = false;
  if (isCleanAbsolute(result.given.native())) {
    if (found != nullptr && resolveThroughFolder(result.given.native(), location.root.get(), *found)) {
      fast = true; // a missing leaf in a symlink-free folder is resolved as written, like the long way
      info = found->leaf;
    } else {
      info = statWithoutSymlinks(result.given.native());
      fast = info.has_value();
    }
  }
  if (fast) {
    result.canonical = result.given;
  } else {
    result.canonical = resolveComponents(result.given, info);
  }
  if (info) {
    result.exists = true;
    result.isDirectory = S_ISDIR(info->st_mode);
  }
  // The workspace folder must still be the one toold started in: renamed away or exchanged with
  // another folder (one rename(2) or renameat2(RENAME_EXCHANGE) by any process), its name would
  // lead every file tool into that other folder with no ask. Paths below it are held from its
  // descriptor (workspace_root.h), which a later swap cannot redirect; this says that it moved.
  if (location.root) {
    if (auto moved = workspaceRootMoved(*location.root)) throw PathError(*moved);
    result.root = location.root;
  }
  // A worktree of `/` would make the whole machine the workspace.
  result.inside = pathContains(location.directory, result.canonical) ||
                  (!location.worktree.empty() && location.worktree != "/" &&
                   pathContains(location.worktree, result.canonical));
  // Resolved like the path itself, so a link into the folder, or a data dir given through a
  // symlink, is recognised all the same.
  if (!location.dataDir.empty()) result.inToolOutput = pathContains(toolOutputFolder(location.dataDir), result.canonical);
  return result;
}

} // namespace

ResolvedPath resolveToolPath(std::string_view path, const Location& location) { return resolve(path, location, nullptr); }

ResolvedPath resolveToolPath(std::string_view path, const Location& location, ResolvedFolder& found) {
  return resolve(path, location, &found);
}

bool pathContains(const fs::path& root, const fs::path& candidate) {
  // Element by element over the text: called several times a call, where building a path object
  // per element cost more than the rest of a small read.
  return containsPath(root.native(), candidate.native(), nullptr);
}

bool pathTextContains(std::string_view root, std::string_view candidate) { return containsPath(root, candidate, nullptr); }

std::optional<std::string_view> textBelow(std::string_view root, std::string_view candidate) {
  std::string_view below;
  if (!containsPath(root, candidate, &below)) return std::nullopt;
  return below;
}

bool isCleanAbsolute(std::string_view path) {
  if (path.size() < 2 || path.front() != '/' || path.back() == '/') return false;
  for (std::size_t start = 1; start <= path.size();) {
    std::size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    const std::string_view component = path.substr(start, end - start);
    if (component.empty() || component == "." || component == "..") return false;
    start = end + 1;
  }
  return true;
}

fs::path findWorktree(const fs::path& directory) {
  std::error_code error;
  fs::path canonical = fs::canonical(directory, error);
  if (error) return {};
  for (fs::path current = canonical;; current = current.parent_path()) {
    fs::file_status status = fs::status(current / ".git", error);
    if (!error && (fs::is_directory(status) || fs::is_regular_file(status))) return current;
    if (current == current.root_path() || !current.has_parent_path()) return {};
  }
}

std::optional<PermissionAsk> externalDirectoryAsk(const ResolvedPath& path, PathKind kind) {
  if (path.inside) return std::nullopt;
  fs::path dir = kind == PathKind::Directory ? path.canonical : path.canonical.parent_path();
  std::string pattern = joinComponent(dir.string(), "*");
  PermissionAsk ask;
  ask.action = "external_directory";
  ask.resources = {pattern};
  ask.save = {pattern};
  ask.metadata = {{"filepath", path.given.string()},
                  {"resolved", path.canonical.string()},
                  {"parentDir", dir.string()}};
  return ask;
}

std::string workspaceRelative(const ResolvedPath& path, const Location& location) {
  std::string_view below;
  if (!containsPath(location.directory.native(), path.canonical.native(), &below)) return path.canonical.string();
  // Canonical: no `.` or `..`, so what follows the root is the relative path, its slashes aside.
  std::string relative;
  PathElements elements(below);
  for (std::string_view element; elements.next(element);) {
    if (!relative.empty()) relative += '/';
    relative += element;
  }
  return relative.empty() ? "." : relative;
}

} // namespace toold::core
