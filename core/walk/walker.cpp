// The parallel walker: a shared last-in-first-out stack of folders, a count of folders pushed but
// not yet finished, and N threads that pop a folder, read it with readdir, judge and visit its
// entries, and push the subfolders to enter. A thread with nothing to pop waits while others are
// still reading (they may push more); when the count reaches zero, or on Quit, all of them leave.
//
// Paths are kept as std::string in the hot loop; a std::filesystem::path is built once per kept
// entry (for the ignore judgement and the visitor). The entry's type comes from d_type, so a
// plain walk costs no stat per entry; fstatat (relative to the open folder) is used only when
// d_type is unknown, or, with followLinks, to see what a link points to (and one fstat per folder
// for its identity, to detect loops).
#include "core/walk/walker.h"

#include "core/base/unique_fd.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>
#include <utility>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace toold::core {

std::string_view WalkEntry::name() const {
  std::string_view view(relative);
  const auto slash = view.rfind('/');
  return slash == std::string_view::npos ? view : view.substr(slash + 1);
}

namespace {

namespace fs = std::filesystem;

/// One folder on the chain from the root down to a folder being read, by identity: used with
/// followLinks to tell a link to one of its own ancestors (a loop) from a link elsewhere.
struct Ancestor {
  dev_t device = 0;
  ino_t inode = 0;
  std::shared_ptr<const Ancestor> parent;
};

bool isAncestor(const Ancestor* chain, dev_t device, ino_t inode) {
  for (; chain != nullptr; chain = chain->parent.get())
    if (chain->device == device && chain->inode == inode) return true;
  return false;
}

/// A folder held open (O_PATH) while folders found in it wait to be read: they are opened from
/// it by name, one openat each, instead of from the root one component at a time — which made a
/// walk quadratic in depth (a chain 3,000 folders deep took 16 s). Counted: a walk holds at most
/// kMaxHeldFolders at once, so a wide tree cannot run toold out of descriptors; past that, a
/// folder is opened from the root as before.
struct HeldFolder {
  UniqueFd fd;
  std::atomic<int>* held = nullptr;
  HeldFolder(UniqueFd folder, std::atomic<int>* counter) : fd(std::move(folder)), held(counter) {}
  HeldFolder(const HeldFolder&) = delete;
  HeldFolder& operator=(const HeldFolder&) = delete;
  ~HeldFolder() { --*held; }
};
constexpr int kMaxHeldFolders = 256;
/// Folders below this depth are not entered (and said so): no real tree is that deep, and a model
/// can make one with a single `write`.
constexpr int kMaxWalkDepth = 4096;

/// A folder to read.
struct Work {
  std::string path;      ///< absolute, no trailing '/' (except the root "/")
  std::string relative;  ///< '/'-separated, relative to the root; empty for the root
  int depth = 0;         ///< the depth of this folder's entries: 0 for the root's
  bool isRoot = false;
  /// The root's own stack, or for any other folder its parent's (entered when the folder is read,
  /// on the reading thread, so .gitignore files are read in parallel and only for folders entered).
  std::shared_ptr<const IgnoreStack> ignores;
  std::shared_ptr<const Ancestor> ancestors; ///< with followLinks: the parent's chain
  /// The folder this one was found in, when it is held (without followLinks only).
  std::shared_ptr<const HeldFolder> parent;
};

enum class Kind { Directory, File, Symlink, Other, Gone };

Kind kindOf(mode_t mode) {
  if (S_ISDIR(mode)) return Kind::Directory;
  if (S_ISREG(mode)) return Kind::File;
  if (S_ISLNK(mode)) return Kind::Symlink;
  return Kind::Other;
}

/// Closes a DIR* on every way out.
struct DirCloser {
  void operator()(DIR* dir) const { ::closedir(dir); }
};
using DirHandle = std::unique_ptr<DIR, DirCloser>;

std::string errorText(const std::string& path, int error) { return path + ": " + std::strerror(error); }

class ParallelWalk {
public:
  ParallelWalk(const WalkOptions& options, const WalkVisitorFactory& visitors,
               const CancellationToken& cancellation)
      : options_(options), visitors_(visitors), cancellation_(cancellation) {
    skipNames_ = options.skipFolderNames;
    skipNames_.emplace_back(".git");
  }

  WalkResult run(Work root) {
    // Held once: every folder below is reached from this descriptor (see openFolder).
    root_.reset(options_.rootDirectory >= 0 ? ::fcntl(options_.rootDirectory, F_DUPFD_CLOEXEC, 0)
                                            : ::open(root.path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    stack_.push_back(std::move(root));
    pending_ = 1;
    threadCount_ = std::max<std::size_t>(options_.threads, 1);
    errors_.resize(threadCount_);
    threads_.reserve(threadCount_ - 1);
    worker(0); // the calling thread walks; helpers join in once folders wait (push)
    // The walk may have ended by a stop while a helper still reads a folder and pushes what it
    // finds: no helper is started from here on.
    {
      std::lock_guard lock(mutex_);
      noMoreThreads_ = true;
    }
    for (auto& thread : threads_) thread.join();

    if (failure_) std::rethrow_exception(failure_);
    WalkResult result;
    result.cancelled = cancelled_.load();
    result.quit = visitorQuit_.load() || result.cancelled;
    for (auto& errors : errors_)
      for (auto& error : errors) result.errors.push_back(std::move(error));
    std::sort(result.errors.begin(), result.errors.end());
    return result;
  }

private:
  /// Sets the quit flag and wakes every waiting thread.
  void stopAll() {
    quit_.store(true, std::memory_order_release);
    { std::lock_guard lock(mutex_); }
    wakeUp_.notify_all();
  }

  bool stopping() const { return quit_.load(std::memory_order_relaxed); }

  bool checkCancelled() {
    if (!cancellation_.isCancelled()) return false;
    cancelled_.store(true);
    stopAll();
    return true;
  }

  // A helper thread starts only when a second folder waits: a walk of one folder, or of a few
  // small ones (most globs and lists), costs no thread start and join, the larger part of it.
  void push(Work work) {
    {
      std::lock_guard lock(mutex_);
      stack_.push_back(std::move(work));
      ++pending_;
      if (stack_.size() >= 2 && threads_.size() + 1 < threadCount_ && !noMoreThreads_) {
        const std::size_t index = threads_.size() + 1;
        try {
          threads_.emplace_back([this, index] { worker(index); });
        } catch (const std::system_error&) {
          noMoreThreads_ = true; // no more threads to be had: walk with those there are
        }
      }
    }
    wakeUp_.notify_one();
  }

  void worker(std::size_t index) {
    try {
      auto visit = visitors_();
      std::vector<std::string>& errors = errors_[index];
      for (;;) {
        Work work;
        {
          std::unique_lock lock(mutex_);
          wakeUp_.wait(lock, [this] { return stopping() || !stack_.empty() || pending_ == 0; });
          if (stopping() || stack_.empty()) return;
          work = std::move(stack_.back());
          stack_.pop_back();
        }
        if (checkCancelled()) return;
        readFolder(work, visit, errors);
        bool done = false;
        {
          std::lock_guard lock(mutex_);
          done = --pending_ == 0;
        }
        if (done) wakeUp_.notify_all();
      }
    } catch (...) {
      {
        std::lock_guard lock(mutex_);
        if (!failure_) failure_ = std::current_exception();
      }
      stopAll();
    }
  }

  /// Opens the folder. Without followLinks every folder below the root is reached from the root's
  /// descriptor, one component at a time with O_NOFOLLOW, never by its path string: a folder (or
  /// any folder above it) replaced by a link since it was listed is not entered, so the walk cannot
  /// be led out of the tree it was asked for.
  DIR* openFolder(const Work& work) const {
    constexpr int kFlags = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
    int fd = -1;
    if (work.isRoot) {
      fd = root_ ? ::openat(root_.get(), ".", kFlags) : ::open(work.path.c_str(), kFlags);
    } else if (options_.followLinks || !root_) {
      fd = ::open(work.path.c_str(), kFlags | (options_.followLinks ? 0 : O_NOFOLLOW));
    } else if (work.parent) {
      const std::size_t slash = work.relative.rfind('/');
      const std::string name = slash == std::string::npos ? work.relative : work.relative.substr(slash + 1);
      fd = ::openat(work.parent->fd.get(), name.c_str(), kFlags | O_NOFOLLOW);
    } else {
      fd = openBelowRoot(work.relative);
    }
    if (fd < 0) return nullptr;
    DIR* dir = ::fdopendir(fd);
    if (dir == nullptr) {
      const int error = errno;
      ::close(fd);
      errno = error;
    }
    return dir;
  }

  /// `relative` ('/'-separated, below the root) opened from the root without following any link;
  /// -1 with errno set when a component is missing, not a folder, or a link.
  int openBelowRoot(const std::string& relative) const {
    UniqueFd current;
    int at = root_.get();
    std::size_t start = 0;
    while (start <= relative.size()) {
      std::size_t slash = relative.find('/', start);
      if (slash == std::string::npos) slash = relative.size();
      const std::string name = relative.substr(start, slash - start);
      const bool last = slash == relative.size();
      const int fd = ::openat(at, name.c_str(), O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | (last ? O_RDONLY : O_PATH));
      if (fd < 0) return -1;
      if (last) return fd;
      current.reset(fd);
      at = current.get();
      start = slash + 1;
    }
    errno = ENOENT;
    return -1;
  }

  void readFolder(Work& work, std::function<WalkDecision(const WalkEntry&)>& visit,
                  std::vector<std::string>& errors) {
    DirHandle dir(openFolder(work));
    if (!dir) {
      errors.push_back(errorText(work.path, errno));
      return;
    }
    const int dirFd = ::dirfd(dir.get());

    std::shared_ptr<const IgnoreStack> ignores;
    if (options_.respectIgnores && work.ignores)
      ignores = work.isRoot ? std::move(work.ignores) : work.ignores->enterAt(work.path, dirFd);

    std::shared_ptr<const Ancestor> ancestors;
    if (options_.followLinks) {
      struct stat self {};
      if (::fstat(dirFd, &self) == 0)
        ancestors = std::make_shared<const Ancestor>(Ancestor{self.st_dev, self.st_ino, std::move(work.ancestors)});
      else
        ancestors = std::move(work.ancestors);
    }

    // Each entry's path and relative path: the folder's, a '/', then the name.
    std::string path = work.path;
    if (path.empty() || path.back() != '/') path.push_back('/');
    const std::size_t pathBase = path.size();
    std::string relative = work.relative;
    if (!relative.empty()) relative.push_back('/');
    const std::size_t relativeBase = relative.size();

    const bool mayDescend = options_.maxDepth < 0 || work.depth < options_.maxDepth;
    std::shared_ptr<const HeldFolder> self; // made when the first folder is found here
    WalkEntry entry;
    entry.depth = work.depth;
    std::size_t count = 0;

    for (;;) {
      if (stopping()) return;
      if ((++count & 255U) == 0 && checkCancelled()) return;
      errno = 0;
      const dirent* item = ::readdir(dir.get());
      if (item == nullptr) {
        if (errno != 0) errors.push_back(errorText(work.path, errno));
        return;
      }
      const char* name = item->d_name;
      if (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'))) continue;

      path.resize(pathBase);
      path.append(name);
      const Kind kind = classify(dirFd, *item, path, errors);
      if (kind == Kind::Gone) continue;
      bool isDirectory = kind == Kind::Directory;
      bool isFile = kind == Kind::File;
      const bool isSymlink = kind == Kind::Symlink;

      dev_t targetDevice = 0;
      ino_t targetInode = 0;
      if (isSymlink && options_.followLinks) {
        struct stat target {};
        if (::fstatat(dirFd, name, &target, 0) == 0) { // else dangling: reported as a link only
          isDirectory = S_ISDIR(target.st_mode);
          isFile = S_ISREG(target.st_mode);
          targetDevice = target.st_dev;
          targetInode = target.st_ino;
        }
      }
      if (isDirectory && std::find(skipNames_.begin(), skipNames_.end(), name) != skipNames_.end()) continue;

      entry.path = path;
      if (ignores && ignores->matchAbsolute(entry.path, isDirectory) == IgnoreMatch::Ignore) continue;

      relative.resize(relativeBase);
      relative.append(name);
      entry.relative = relative;
      entry.isDirectory = isDirectory;
      entry.isFile = isFile;
      entry.isSymlink = isSymlink;
      entry.folderFd = dirFd;

      if (stopping()) return;
      const WalkDecision decision = visit(entry);
      if (decision == WalkDecision::Quit) {
        visitorQuit_.store(true);
        stopAll();
        return;
      }
      if (!isDirectory || decision == WalkDecision::Skip || !mayDescend) continue;
      if (isSymlink && isAncestor(ancestors.get(), targetDevice, targetInode)) {
        errors.push_back(path + ": a symbolic link loop");
        continue;
      }
      if (work.depth + 1 >= kMaxWalkDepth) {
        errors.push_back(path + ": more than " + std::to_string(kMaxWalkDepth) + " folders deep; not entered");
        continue;
      }
      if (!self && !options_.followLinks && root_ && heldFolders_.fetch_add(1) < kMaxHeldFolders) {
        UniqueFd held(::openat(dirFd, ".", O_PATH | O_DIRECTORY | O_CLOEXEC));
        if (held) self = std::make_shared<const HeldFolder>(std::move(held), &heldFolders_);
        else --heldFolders_;
      } else if (!self && !options_.followLinks && root_) {
        --heldFolders_; // over the bound: this folder's children are opened from the root
      }
      push(Work{path, relative, work.depth + 1, false, ignores, ancestors, self});
    }
  }

  /// The entry's own type (not its target's): from d_type, else from an lstat. Gone when the
  /// entry vanished since the folder was listed (or cannot be looked at: reported).
  static Kind classify(int dirFd, const dirent& item, const std::string& path, std::vector<std::string>& errors) {
#ifdef _DIRENT_HAVE_D_TYPE
    switch (item.d_type) {
    case DT_DIR: return Kind::Directory;
    case DT_REG: return Kind::File;
    case DT_LNK: return Kind::Symlink;
    case DT_UNKNOWN: break;
    default: return Kind::Other;
    }
#endif
    struct stat status {};
    if (::fstatat(dirFd, item.d_name, &status, AT_SYMLINK_NOFOLLOW) == 0) return kindOf(status.st_mode);
    if (errno != ENOENT) errors.push_back(errorText(path, errno));
    return Kind::Gone;
  }

  const WalkOptions& options_;
  UniqueFd root_; ///< the root, held for the whole walk; empty when it could not be opened
  std::atomic<int> heldFolders_{0}; ///< HeldFolders alive; declared before stack_, whose Works hold them
  const WalkVisitorFactory& visitors_;
  const CancellationToken& cancellation_;
  std::vector<std::string> skipNames_;

  std::mutex mutex_;
  std::condition_variable wakeUp_;
  std::vector<Work> stack_;    ///< guarded by mutex_
  std::size_t threadCount_ = 1;          ///< the calling thread and the helpers it may have
  std::vector<std::thread> threads_;     ///< the helpers started; guarded by mutex_
  bool noMoreThreads_ = false;           ///< no helper may start (none could, or the walk ended); guarded by mutex_
  std::size_t pending_ = 0;    ///< folders pushed and not yet finished; guarded by mutex_
  std::exception_ptr failure_; ///< the first exception a thread met; guarded by mutex_
  std::atomic<bool> quit_{false};
  std::atomic<bool> visitorQuit_{false};
  std::atomic<bool> cancelled_{false};
  std::vector<std::vector<std::string>> errors_; ///< one list per thread
};

} // namespace

WalkResult walkTree(const fs::path& root, const WalkOptions& options, const WalkVisitorFactory& visitors,
                    const CancellationToken& cancellation) {
  if (cancellation.isCancelled()) {
    WalkResult result;
    result.cancelled = result.quit = true;
    return result;
  }

  // The root, absolute and without "." or ".." components or a trailing '/', so that every
  // entry's path is the root joined with its relative path, as the ignore rules expect.
  std::error_code error;
  fs::path absolute = fs::absolute(root, error);
  if (error) absolute = root;
  std::string rootPath = absolute.lexically_normal().string();
  while (rootPath.size() > 1 && rootPath.back() == '/') rootPath.pop_back();

  Work work;
  work.path = rootPath;
  work.isRoot = true;
  if (options.respectIgnores) work.ignores = IgnoreStack::forRoot(fs::path(rootPath), options.ignore);

  ParallelWalk walk(options, visitors, cancellation);
  return walk.run(std::move(work));
}

} // namespace toold::core
