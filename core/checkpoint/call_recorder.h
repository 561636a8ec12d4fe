// One call's checkpoint while the call runs. The call pipeline starts it before a call that may
// change the workspace (the tracker's mark is taken then) and finishes it after the call; the file
// tools tell it each change from the bytes they hold — the old version before they commit, the new
// one after — so nothing is read again and nothing scans the tree. Finishing merges what the tools
// told with what the tracker found (the tools' word wins for their paths: it is exact), and writes
// a manifest only when something changed.
//
// Thread-safe: a tool may tell from any thread.
#pragma once

#include "core/checkpoint/checkpoint_book.h"
#include "core/checkpoint/change_tracker.h"

#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <sys/stat.h>

namespace toold::core {

class CallRecorder : public std::enable_shared_from_this<CallRecorder> {
public:
  CallRecorder(std::shared_ptr<CheckpointBook> book, CallIdentity identity);
  ~CallRecorder();
  CallRecorder(const CallRecorder&) = delete;
  CallRecorder& operator=(const CallRecorder&) = delete;

  /// The file at `canonical` (absolute, symlink-free) is about to be replaced or removed; `bytes` is
  /// what it holds now (nullopt: nothing is there yet), `mode` its permission bits. The first told
  /// version of a path in a call is its "before". A path outside the workspace is not recorded; a
  /// path never told changed() afterwards (the write failed) is no change.
  void willChange(const std::filesystem::path& canonical, std::optional<std::string_view> bytes, mode_t mode);
  /// The file at `canonical` was written with `bytes` (nullopt: it was removed); `status`, when
  /// known, is the written file's (its mode and stamps). The last told version is its "after".
  void changed(const std::filesystem::path& canonical, std::optional<std::string_view> bytes, mode_t mode,
               const struct stat* status = nullptr);

  /// After the call (its background work included), or earlier by a tool that will change nothing
  /// more and frees its paths before it answers: the tracker's changes merged with the told
  /// ones, stored as a checkpoint when any path differs. Returns its sequence number, 0 when
  /// nothing changed (or it was finished already); a failure to store it is logged, never the
  /// call's.
  std::uint64_t finish();

  /// A background job the call started goes on after the call's answer, and what it changes is
  /// the call's too: until the returned function runs (once, at the job's end), finish() only
  /// notes that the call is over, and the checkpoint is written when the last hold is let go.
  std::function<void()> holdOpen();

private:
  std::uint64_t finishNow();
  void letGo();

  std::optional<std::string> relativeOf(const std::filesystem::path& canonical) const;
  std::optional<FileRecord> recorded(const std::string& path, std::string_view bytes, mode_t mode);

  std::shared_ptr<CheckpointBook> book_;
  CallIdentity identity_;
  std::int64_t startedMs_ = 0;
  std::optional<ChangeTracker::Mark> mark_;
  std::mutex mutex_;
  bool finished_ = false;
  int openHolds_ = 0;         ///< background jobs of the call still running
  bool finishWanted_ = false; ///< finish() came while holds were open
  /// Held from the first told version until the manifest names its chunks (see ChunkStore::Hold).
  std::unique_ptr<ChunkStore::Hold> hold_;
  WorkspaceState before_, after_;
  std::set<std::string> told_;         ///< paths told willChange ("before" known for these)
  std::set<std::string> changed_;      ///< paths told changed (a willChange alone: the write failed)
  std::set<std::string> unrestorable_; ///< told paths whose version could not be stored
  std::string note_;
};

} // namespace toold::core
