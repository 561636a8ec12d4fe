// Whether a folder is on a local disk file system (ext4, xfs, btrfs, tmpfs, ...), where a small
// read takes microseconds and cannot hang. The read tool reads such files on the session's queue
// instead of handing the call to a worker thread and back: on a small machine each hand-off wakes
// a sleeping thread, which costs more than the read itself. On a network or FUSE file system a
// read can stall for as long as the server does, so it keeps to the workers there.
#pragma once

#include <filesystem>
#include <map>
#include <mutex>
#include <string>

namespace toold::builtins {

class LocalDiskCheck {
public:
  /// The verdict for `folder`, looked up once (statfs) and then remembered: a workspace's file
  /// system does not change under a running daemon. False when the folder cannot be looked at.
  bool onLocalDisk(const std::filesystem::path& folder);

private:
  std::mutex mutex_;
  std::map<std::string, bool, std::less<>> verdicts_;
};

} // namespace toold::builtins
