// Descriptors of the small files read lately, kept open for the next read of the same file. A
// small read was seven system calls: the request's read, the look at the path, open, fstat, the
// file's read, close and the answer's write. On a VM each system call costs microseconds — they
// were half of a read's CPU — and an agent pages through the same few files: kept open, open,
// fstat and close are left out of every later read of one.
//
// An entry serves a read only when the look at the path that the read has just taken (the hold's
// lstat, through the folder it holds) names the very inode the entry holds open, unchanged since:
// a file replaced (every toold write renames a new inode into place, and so do most editors) or
// removed is another inode, or none, and one changed in any way — its bytes, its mode (a file
// made unreadable), its owner — has a new change time; each is opened afresh, as a first read
// would open it. What was checked when it was opened — a regular file on the workspace's local
// disk — is a property of the inode, so it still holds. Only files
// up to kMaxKeptBytes are kept, at most kCapacity of them; one unused for kKeepFor is closed by
// the next read. A removed file's space on disk is freed when its entry goes: at most a few MiB
// held, until then.
#pragma once

#include "core/base/unique_fd.h"

#include <sys/stat.h>

#include <chrono>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace toold::builtins {

class OpenFileCache {
public:
  static constexpr std::size_t kCapacity = 8;
  static constexpr off_t kMaxKeptBytes = 1 << 20;
  static constexpr std::chrono::seconds kKeepFor{30};

  using Clock = std::chrono::steady_clock;
  using SharedFd = std::shared_ptr<const core::UniqueFd>;

  /// The descriptor kept for `path` when it is open on the inode `seen` names (an lstat of the
  /// path taken just now), unchanged since it was opened (the same change time); null otherwise,
  /// and the entry for `path` is dropped.
  /// The descriptor stays open for as long as the caller holds it, whatever the cache does.
  SharedFd find(std::string_view path, const struct stat& seen, Clock::time_point now = Clock::now());

  /// Keeps `file`, open on the regular file `opened` (its fstat), for later reads of `path`;
  /// a file larger than kMaxKeptBytes is not kept.
  void keep(std::string path, SharedFd file, const struct stat& opened, Clock::time_point now = Clock::now());

  std::size_t size() const;

private:
  struct Entry {
    std::string path;
    dev_t device;
    ino_t inode;
    struct timespec changed; ///< st_ctim when it was opened
    SharedFd file;
    Clock::time_point used;
  };
  void dropExpired(Clock::time_point now);

  mutable std::mutex mutex_;
  std::list<Entry> entries_; ///< most recently used first
};

} // namespace toold::builtins
