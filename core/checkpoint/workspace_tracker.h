// The ChangeTracker of a workspace (change_tracker.h): what `bash`, its background jobs, command
// tools, MCP tools and Code Mode programs changed, found without a scan of the tree per call.
//
// start() sets up, on a thread of its own (nothing waits for it): one inotify watch per kept
// folder (folder_watches.h; the walker's ignore rules, `.git` never), then the baseline — one
// recorded version of every kept path, its content in the checkpoints' store. The baseline is kept
// in the store too (baseline_manifest.h), so a later start reads only the files whose stamp (size,
// modification time, inode) changed. From then on the events keep the baseline current:
//
// - begin() takes the events queued since the last look. Paths changed while no call was marked
//   were changed outside any call: the baseline takes their new versions, so the call is not
//   blamed for them.
// - Events read while marks are live belong to every live mark: the first time a path is named
//   during a mark, the baseline's version of it is kept as the mark's "before".
// - end(mark) takes the queued events, records every path named during the mark now ("after"),
//   leaves out paths that are as they were, and the baseline takes the new versions. A path whose
//   version at the mark was not known (the baseline had not reached it, or kept its hash only) is
//   listed as unrestorable; another mark live during the span makes the changes `concurrent`.
// - told() is a file tool's own change: the baseline takes its record, so the event it caused
//   (queued or still coming) finds the path as the baseline has it and is not reported.
//
// When events were lost (the kernel's queue overflowed) the changes are found once by a stamp scan
// (tree_listing.h) against the baseline; when some folder could not be watched (the watch limit,
// fs.inotify.max_user_watches, was reached, or the folder refused it) every look scans. Either way
// the checkpoint's note says so. begin, end and told may be called from any threads at once.
#pragma once

#include "core/base/cancellation.h"
#include "core/checkpoint/change_tracker.h"
#include "core/checkpoint/chunk_store.h"
#include "core/checkpoint/file_record.h"
#include "core/checkpoint/folder_watches.h"
#include "core/checkpoint/kept_paths.h"
#include "core/checkpoint/tree_listing.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace toold::core {

struct WorkspaceTrackerOptions {
  IgnoreOptions ignore;       ///< as the walker applies them; the ceiling defaults to the workspace
  bool respectIgnores = true;
  RecordingLimits limits;     ///< files over limits.hashOnlyOver are kept by hash alone
  /// Where the baseline's manifest is named; empty: `baseline` beside the store's folder.
  std::filesystem::path baselineFile;
  std::size_t walkThreads = 2;
  /// How long a changed baseline may wait before it is written to the store again.
  std::chrono::milliseconds persistEvery{30'000};
  std::size_t watchLimit = 0; ///< tests: fewer watches than the system allows (0: the system's limit)
  /// Tests: called on the tracker's thread once the folders are listed and watched, before any
  /// file is read for the baseline.
  std::function<void()> beforeBaseline;
};

class WorkspaceTracker final : public ChangeTracker {
public:
  /// The workspace open as `root` (a descriptor its owner keeps open while the tracker lives) at
  /// `rootPath`; contents go into `store`, which outlives the tracker.
  WorkspaceTracker(int root, std::filesystem::path rootPath, ChunkStore& store, WorkspaceTrackerOptions options = {});
  ~WorkspaceTracker() override;
  WorkspaceTracker(const WorkspaceTracker&) = delete;
  WorkspaceTracker& operator=(const WorkspaceTracker&) = delete;

  /// Starts the watches and the baseline on the tracker's thread, and returns at once.
  void start();
  /// Stops that thread, writing the baseline to the store first when it changed. The destructor does it.
  void stop();

  Mark begin() override;
  TrackedChanges end(Mark mark) override;
  void told(const std::string& path, const std::optional<FileRecord>& after) override;
  std::optional<FileRecord> version(const std::string& path) const override;

  struct Progress {
    bool watching = false;        ///< every kept folder listed and (if it could be) watched
    bool baselineTaken = false;   ///< every listed path recorded (or reused from the kept baseline)
    std::size_t watches = 0;
    std::size_t baselinePaths = 0;
    std::size_t pendingPaths = 0; ///< listed, not recorded yet
    std::uint64_t filesRead = 0;  ///< files whose content the tracker read (the baseline, changes)
    std::uint64_t pathsReused = 0; ///< paths taken from the kept baseline by their stamp, unread
    std::string scanning;         ///< why every look scans (a folder could not be watched), or empty
    std::chrono::microseconds watchSetup{0}, baselineTime{0}; ///< wall time of each phase
  };
  Progress progress() const;
  /// Waits until the baseline is taken (tests, measurement); false on timeout.
  bool waitForBaseline(std::chrono::milliseconds timeout);
  /// Writes the baseline to the store now. Returns what failed, or an empty string.
  std::string persistBaseline();
  /// The chunks the baseline needs (its records' and its manifest's): a sweep must keep them.
  void addLiveChunks(std::set<ChunkId>& live) const override;
  /// Tests: as if the kernel's event queue had overflowed.
  void simulateOverflow();

private:
  struct Version {
    bool known = false;                ///< false: the baseline did not have it (not reached, hash-only)
    std::optional<FileRecord> record;  ///< nullopt: absent (when known)
  };
  struct LiveMark {
    std::map<std::string, Version> before; ///< every path named during the mark, as it was at the mark
    bool concurrent = false;
    std::string note;
  };

  void run();
  void setUpWatches();
  void takeBaseline();
  bool watchFolderLocked(int folderFd, const std::string& relative);

  void readQueueLocked();
  /// Reads the queue and handles what was read; a told path's own events (and the making of the
  /// folders it is in) are not named, they are the telling tool's.
  void drainLocked(const std::string* toldPath = nullptr);
  void handleEventLocked(const FolderEvent& event, const std::string* toldPath);
  void changedLocked(const std::string& path);
  void newFolderLocked(const std::string& folder, const std::string* toldPath);
  void scanLocked(const std::string& why);
  Version versionLocked(const std::string& path) const;
  /// Records `path` as it is now (nullopt: absent); an error when it cannot be read.
  std::variant<std::optional<FileRecord>, std::string> recordNowLocked(const std::string& path);
  void takeLocked(const std::string& path, const std::optional<FileRecord>& record);
  void takeOutsideChangesLocked();

  const int root_;
  const std::filesystem::path rootPath_;
  ChunkStore& store_;
  WorkspaceTrackerOptions options_;

  mutable std::mutex mutex_;
  std::condition_variable baselineTakenSignal_;
  FolderWatches watches_;
  KeptPaths kept_;
  std::map<std::string, FileRecord> baseline_;
  std::unordered_map<std::string, PathStamp> pending_; ///< listed, not recorded yet
  std::unordered_set<std::string> told_;  ///< told by a file tool: trusted by stamp once
  bool listed_ = false;                   ///< absence from baseline_ and pending_ means absent
  bool baselineTaken_ = false;
  bool baselineChanged_ = false;
  std::set<ChunkId> manifestChunks_;
  std::map<Mark, LiveMark> live_;
  Mark nextMark_ = 1;
  std::set<std::string> outside_;   ///< changed while no mark was live, for the baseline to take
  std::string repairScan_;          ///< events were lost: why; the next look scans once
  std::string scanning_;            ///< a folder could not be watched: why; every look scans
  std::uint64_t eventCount_ = 0;
  std::unordered_map<std::string, std::uint64_t> namedAt_; ///< while the baseline is taken: the last event per path
  /// Read from the queue, not handled yet: while marks are live the tracker's thread only reads
  /// (so the kernel's queue does not overflow), and begin, end and told handle, so that told()
  /// can still leave out its tool's own events.
  std::vector<FolderEvent> unhandled_;
  std::uint64_t filesRead_ = 0, pathsReused_ = 0;
  std::chrono::microseconds watchSetup_{0}, baselineTime_{0};

  CancellationSource stopping_;
  int wakeFd_ = -1;
  std::thread thread_;
};

} // namespace toold::core
