#include "builtins/files/open_file_cache.h"

#include <algorithm>

namespace toold::builtins {

OpenFileCache::SharedFd OpenFileCache::find(std::string_view path, const struct stat& seen, Clock::time_point now) {
  std::lock_guard lock(mutex_);
  dropExpired(now);
  const auto it = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& entry) { return entry.path == path; });
  if (it == entries_.end()) return nullptr;
  const bool unchanged = it->device == seen.st_dev && it->inode == seen.st_ino &&
                         it->changed.tv_sec == seen.st_ctim.tv_sec && it->changed.tv_nsec == seen.st_ctim.tv_nsec;
  if (!unchanged || !S_ISREG(seen.st_mode) || seen.st_size > kMaxKeptBytes) {
    entries_.erase(it); // replaced or changed: opened afresh, and kept again if it may be
    return nullptr;
  }
  it->used = now;
  entries_.splice(entries_.begin(), entries_, it);
  return entries_.front().file;
}

void OpenFileCache::keep(std::string path, SharedFd file, const struct stat& opened, Clock::time_point now) {
  if (!file || !*file || !S_ISREG(opened.st_mode) || opened.st_size > kMaxKeptBytes) return;
  std::lock_guard lock(mutex_);
  dropExpired(now);
  std::erase_if(entries_, [&](const Entry& entry) { return entry.path == path; });
  entries_.push_front(Entry{std::move(path), opened.st_dev, opened.st_ino, opened.st_ctim, std::move(file), now});
  if (entries_.size() > kCapacity) entries_.pop_back();
}

std::size_t OpenFileCache::size() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

void OpenFileCache::dropExpired(Clock::time_point now) {
  // The least recently used are last: they go first.
  while (!entries_.empty() && now - entries_.back().used > kKeepFor) entries_.pop_back();
}

} // namespace toold::builtins
