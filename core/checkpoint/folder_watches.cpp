#include "core/checkpoint/folder_watches.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sys/inotify.h>
#include <unistd.h>

namespace toold::core {

namespace {

// What a checkpoint needs to know: entries made, removed, written, given another mode or moved, and
// the watched folder itself going away. Unlinking an open file still reports its removal.
constexpr std::uint32_t kWatchMask = IN_CREATE | IN_DELETE | IN_MODIFY | IN_ATTRIB | IN_MOVED_FROM | IN_MOVED_TO |
                                     IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_EXCL_UNLINK;

} // namespace

FolderWatches::FolderWatches(std::size_t limit) : limit_(limit) {
  fd_ = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (fd_ < 0) error_ = std::string("inotify cannot be started: ") + std::strerror(errno);
}

FolderWatches::~FolderWatches() {
  if (fd_ >= 0) ::close(fd_);
}

std::size_t FolderWatches::systemWatchLimit() {
  std::ifstream file("/proc/sys/fs/inotify/max_user_watches");
  std::size_t limit = 0;
  file >> limit;
  return file ? limit : 0;
}

FolderWatches::Added FolderWatches::add(int folder, const std::string& relative, std::string& why) {
  if (fd_ < 0) {
    why = error_;
    return Added::Failed;
  }
  if (limit_ != 0 && byPath_.size() >= limit_ && !byPath_.count(relative)) {
    why = "the limit of " + std::to_string(limit_) + " watches was reached";
    return Added::LimitReached;
  }
  const std::string name = "/proc/self/fd/" + std::to_string(folder);
  const int wd = ::inotify_add_watch(fd_, name.c_str(), kWatchMask);
  if (wd < 0) {
    const int saved = errno;
    why = (relative.empty() ? std::string("the workspace") : relative) + ": " + std::strerror(saved);
    if (saved == ENOSPC) {
      why = "the system's limit of inotify watches (fs.inotify.max_user_watches, " +
            std::to_string(systemWatchLimit()) + ") was reached";
      return Added::LimitReached;
    }
    return Added::Failed;
  }
  // The same folder watched again (found twice, or moved back) keeps its descriptor; the path
  // it was known by before is no longer its.
  if (auto known = byWd_.find(wd); known != byWd_.end() && known->second != relative) byPath_.erase(known->second);
  if (auto previous = byPath_.find(relative); previous != byPath_.end() && previous->second != wd)
    byWd_.erase(previous->second);
  byWd_[wd] = relative;
  byPath_[relative] = wd;
  return Added::Yes;
}

void FolderWatches::forget(int wd) {
  auto known = byWd_.find(wd);
  if (known == byWd_.end()) return;
  if (auto path = byPath_.find(known->second); path != byPath_.end() && path->second == wd) byPath_.erase(path);
  byWd_.erase(known);
}

void FolderWatches::removeBelow(const std::string& relative) {
  std::vector<int> gone;
  const std::string prefix = relative + "/";
  for (const auto& [path, wd] : byPath_)
    if (path == relative || path.compare(0, prefix.size(), prefix) == 0) gone.push_back(wd);
  for (int wd : gone) {
    ::inotify_rm_watch(fd_, wd);
    forget(wd);
  }
}

void FolderWatches::read(std::vector<FolderEvent>& events, bool& overflowed) {
  if (fd_ < 0) return;
  alignas(inotify_event) char buffer[64 * 1024];
  for (;;) {
    const ssize_t n = ::read(fd_, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    for (ssize_t offset = 0; offset < n;) {
      const auto* event = reinterpret_cast<const inotify_event*>(buffer + offset);
      offset += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
      if (event->mask & IN_Q_OVERFLOW) {
        overflowed = true;
        continue;
      }
      if (event->mask & IN_UNMOUNT) overflowed = true;
      if (event->mask & IN_IGNORED) {
        forget(event->wd);
        continue;
      }
      if (event->len == 0) continue; // the folder itself: its parent's watch names it
      const auto folder = byWd_.find(event->wd);
      if (folder == byWd_.end()) continue; // a watch already given up
      FolderEvent out;
      const std::string name(event->name);
      out.path = folder->second.empty() ? name : folder->second + "/" + name;
      out.mask = event->mask;
      out.isFolder = (event->mask & IN_ISDIR) != 0;
      events.push_back(std::move(out));
    }
  }
}

} // namespace toold::core
