// How a checkpoint learns what a call changed when the call cannot say it itself: `bash` and its
// background jobs, command tools, MCP tools, Code Mode programs. The checkpoints' book
// (checkpoint_book.h) asks a ChangeTracker for a mark before such a call and for the changes since
// that mark after it; the file tools, which know their paths and hold both versions in memory, tell
// the tracker what they wrote instead, so it neither reads those files again nor counts them twice.
//
// The tracker keeps a baseline — one recorded version of every path of the workspace that its
// ignore rules keep — so that the version before a change is known even for a file no call has
// touched yet (docs/checkpoints.md, "Recording a call cheaply"). This interface is what the book
// depends on; the inotify tracker with its stamp-scan fallback (workspace_tracker.h) implements it,
// and tests give the book a scripted one.
#pragma once

#include "core/checkpoint/state_diff.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace toold::core {

/// What changed in the workspace between a mark and now.
struct TrackedChanges {
  /// The changed paths' records before (at the mark) and now: a path absent from `before` did not
  /// exist at the mark, absent from `after` no longer exists. Both hold every changed path's key
  /// when it existed on that side, so diffStates(before, after) is the change.
  WorkspaceState before, after;
  /// Changed paths whose version at the mark is not known (the baseline had not reached them, or
  /// it was hash-only): seen in a diff, not restorable.
  std::vector<std::string> unrestorable;
  /// Another call that may change the workspace ran during some of the span: these changes may be
  /// its, not only this call's.
  bool concurrent = false;
  /// Set when the changes were found by a stamp scan rather than the watcher (why: the queue
  /// overflowed, the watch limit was reached, a folder could not be watched), or when some could
  /// not be recorded; shown with the checkpoint.
  std::string note;
};

class ChangeTracker {
public:
  using Mark = std::uint64_t;
  virtual ~ChangeTracker() = default;

  /// Before a call that may change the workspace. What changed since the last look and was not
  /// done by a running call was done outside the session: the baseline takes those versions, so
  /// this call is not blamed for them.
  virtual Mark begin() = 0;
  /// After that call (its background work, if any, included): what changed since `mark`, with
  /// the baseline brought up to date. Ends the mark.
  virtual TrackedChanges end(Mark mark) = 0;
  /// A change a file tool made and recorded itself (`after`: nullopt when it removed the path): the
  /// baseline takes `after`, and the watcher's event for it is not reported again.
  virtual void told(const std::string& path, const std::optional<FileRecord>& after) = 0;
  /// The baseline's record of `path`, when it holds one; a file tool's version before its change
  /// is often that record (the session's own last write), and need not be chunked again.
  virtual std::optional<FileRecord> version(const std::string& path) const {
    (void)path;
    return std::nullopt;
  }
  /// Adds the chunks the tracker's own versions need (the baseline's) to `live`, so that an
  /// eviction's sweep keeps them: the version before a file's first change is only there.
  virtual void addLiveChunks(std::set<ChunkId>& live) const { (void)live; }
};

} // namespace toold::core
