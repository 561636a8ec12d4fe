// Whether a folder is on a local disk file system (ext4, xfs, btrfs, tmpfs, ...), where a small
// read takes microseconds and cannot hang. The read tool reads such files on the session's queue
// instead of handing the call to a worker thread and back: on a small machine each hand-off wakes
// a sleeping thread, which costs more than the read itself. On a network or FUSE file system a
// read can stall for as long as the server does, so it keeps to the workers there.
#pragma once

#include "core/base/unique_fd.h"

#include <sys/types.h>

#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace toold::builtins {

class LocalDiskCheck {
public:
  /// The device of `folder`'s file system when that is a local disk one, looked up once (statfs)
  /// and then remembered: a workspace's file system does not change under a running daemon.
  /// nullopt for any other file system, or a folder that cannot be looked at.
  ///
  /// The folder is kept open from then on. That keeps its file system alive (even one unmounted
  /// lazily), so its device number is never given to another mount while toold runs: a file on
  /// this device is on this file system, with no need to ask (fstatfs) for every file read.
  std::optional<dev_t> localDevice(const std::filesystem::path& folder);

  bool onLocalDisk(const std::filesystem::path& folder) { return localDevice(folder).has_value(); }

private:
  struct Verdict {
    std::optional<dev_t> device;
    core::UniqueFd pin;
  };
  std::mutex mutex_;
  std::map<std::string, Verdict, std::less<>> verdicts_;
};

} // namespace toold::builtins
