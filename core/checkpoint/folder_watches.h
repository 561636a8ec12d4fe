// One inotify instance watching a workspace's folders, one watch each, and turning its events into
// the workspace-relative paths they name. A folder is watched through a descriptor the caller opened
// (every folder reached from the workspace's descriptor without following links), by its
// /proc/self/fd name, so a folder swapped for a symlink meanwhile is never what gets watched.
//
// Events are queued by the system call that changes the folder, so once a command has exited its
// events are in the queue; read() takes what is queued without waiting. The kernel's queue is
// bounded (fs.inotify.max_queued_events): when it overflows, events are lost and read() says so,
// and the caller finds the changes another way. Watches are bounded per user
// (fs.inotify.max_user_watches): add() says when the limit is reached.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace toold::core {

struct FolderEvent {
  std::string path;       ///< workspace-relative: the entry the event names in its watched folder
  std::uint32_t mask = 0; ///< IN_CREATE, IN_DELETE, IN_MODIFY, IN_ATTRIB, IN_MOVED_FROM, IN_MOVED_TO
  bool isFolder = false;
};

class FolderWatches {
public:
  /// `limit`: at most this many watches (0: the system's limit alone); tests make it small.
  explicit FolderWatches(std::size_t limit = 0);
  ~FolderWatches();
  FolderWatches(const FolderWatches&) = delete;
  FolderWatches& operator=(const FolderWatches&) = delete;

  /// The inotify descriptor (to poll), or -1 when inotify could not be started (error() says why).
  int fd() const { return fd_; }
  const std::string& error() const { return error_; }

  enum class Added { Yes, LimitReached, Failed };
  /// Watches the folder open as `folder` (any descriptor of it; O_PATH will do) under `relative`
  /// ("" for the workspace's root). On failure, `why` says what the system answered.
  Added add(int folder, const std::string& relative, std::string& why);
  /// Stops watching `relative` and every folder below it (a folder moved away).
  void removeBelow(const std::string& relative);
  bool watching(const std::string& relative) const { return byPath_.count(relative) != 0; }
  std::size_t count() const { return byPath_.size(); }

  /// Appends what is queued to `events`. `overflowed` is set when the kernel dropped events, or a
  /// watched file system went away: the changes since the last look are not all known.
  void read(std::vector<FolderEvent>& events, bool& overflowed);

  /// The system's limit on watches per user, from /proc/sys/fs/inotify/max_user_watches (0: unknown).
  static std::size_t systemWatchLimit();

private:
  void forget(int wd);

  int fd_ = -1;
  std::size_t limit_ = 0;
  std::string error_;
  std::unordered_map<int, std::string> byWd_;
  std::unordered_map<std::string, int> byPath_;
};

} // namespace toold::core
