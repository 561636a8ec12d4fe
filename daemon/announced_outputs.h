// The retained outputs the MCP face told its host of lately (notifications/resources/list_changed).
// A cut output whose text was kept before names that file again (OutputStore::retain): the host's
// resource list did not change, and telling it so would only make it list again.
#pragma once

#include <algorithm>
#include <cstddef>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

namespace toold::daemon {

class AnnouncedOutputs {
public:
  /// More than the store remembers to reuse (RecentOutputs::kRemembered): a reused file is still
  /// known here. One forgotten costs a list_changed too many, never one too few.
  static constexpr std::size_t kRemembered = 64;

  /// Whether any of `paths` is new to the host (then all of them are remembered as told). No
  /// paths (a command's own log, always a new file) is new.
  bool anyNew(const std::vector<std::string>& paths) {
    if (paths.empty()) return true;
    std::lock_guard lock(mutex_);
    bool fresh = false;
    for (const auto& path : paths) {
      if (std::find(told_.begin(), told_.end(), path) != told_.end()) continue;
      fresh = true;
      told_.push_back(path);
      if (told_.size() > kRemembered) told_.pop_front();
    }
    return fresh;
  }

private:
  std::mutex mutex_;
  std::deque<std::string> told_;
};

} // namespace toold::daemon
