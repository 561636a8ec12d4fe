// The checkpoints of one workspace: a manifest per call (or restore) that changed something, the
// chunk store their records name, and a small index per session to find a session's checkpoints
// without reading every manifest. On disk, in `<data-dir>/checkpoints/<workspace key>/`:
//
//   workspace          the workspace's path (the key is a hash of it)
//   chunks/            the ChunkStore
//   manifests/<seq>    one checkpoint each (checkpoint_manifest.h), published whole or not at all
//   sessions/<key>     one line per checkpoint of a session ("<seq>"), and "evicted\t<ms>\t<bytes>"
//                      once its checkpoints were evicted to keep the store under its budget
//
// Sequence numbers rise across the book; a manifest is written to a staging file and linked to
// its name, which fails rather than replaces when another toold of the same workspace took that
// number, so two never overwrite each other's checkpoints.
#pragma once

#include "core/checkpoint/checkpoint_manifest.h"
#include "core/checkpoint/chunk_store.h"
#include "core/checkpoint/file_record.h"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace toold::core {

class ChangeTracker;
class CallRecorder;

struct CheckpointOptions {
  /// The store's size past which the oldest sessions' checkpoints are evicted.
  std::uint64_t budgetBytes = std::uint64_t{1} << 30;
  RecordingLimits recording;
};

/// Who made a checkpoint.
struct CallIdentity {
  std::string sessionID, messageID, callID, tool;
};

class CheckpointBook : public std::enable_shared_from_this<CheckpointBook> {
public:
  /// `<dataDir>/checkpoints/<key of workspace>`.
  static std::filesystem::path folderFor(const std::filesystem::path& dataDir, const std::filesystem::path& workspace);

  /// The book in `folder` for the workspace `workspace` (canonical). Throws std::runtime_error when
  /// its folders cannot be made.
  CheckpointBook(std::filesystem::path folder, std::filesystem::path workspace, CheckpointOptions options = {});
  ~CheckpointBook();
  CheckpointBook(const CheckpointBook&) = delete;
  CheckpointBook& operator=(const CheckpointBook&) = delete;

  const std::filesystem::path& folder() const { return folder_; }
  const std::filesystem::path& workspace() const { return workspace_; }
  const CheckpointOptions& options() const { return options_; }
  ChunkStore& store() { return store_; }
  const ChunkStore& store() const { return store_; }

  /// What finds the changes of calls that do not tell them (null: only told changes are
  /// recorded). Set before the first call; the book does not own it.
  void setTracker(ChangeTracker* tracker) { tracker_.store(tracker); }
  ChangeTracker* tracker() const { return tracker_.load(); }

  /// A recorder for one call that may change the workspace, begun now (the tracker's mark taken).
  std::shared_ptr<CallRecorder> startCall(CallIdentity identity);

  /// Stores `checkpoint` under the next sequence number (set in it) and lists it in its session's
  /// index. What failed, else empty.
  std::string write(Checkpoint& checkpoint);

  /// Where the manifest of checkpoint `sequence` is (or would be).
  std::filesystem::path manifestPath(std::uint64_t sequence) const;
  /// One checkpoint; nullopt when it is not there (evicted) or unreadable.
  std::optional<Checkpoint> read(std::uint64_t sequence) const;

  struct History {
    std::vector<Checkpoint> checkpoints; ///< in sequence order
    /// Set when the session's checkpoints were evicted: "evicted on <date> to keep checkpoints under <n> MB".
    std::string evicted;
    bool known = false; ///< the book has an index for the session
  };
  History history(const std::string& sessionID) const;

private:
  std::filesystem::path indexPathOf(const std::string& sessionID) const;
  /// Appends the checkpoint, published as `name`, to its session's index.
  std::string addToIndex(const Checkpoint& checkpoint, const std::string& name);
  std::uint64_t nextSequence();

  std::filesystem::path folder_, workspace_;
  CheckpointOptions options_;
  ChunkStore store_;
  /// Cleared before the tracker goes (at shutdown), while a background job's recorder may still
  /// finish on another thread.
  std::atomic<ChangeTracker*> tracker_{nullptr};
  int manifestsFd_ = -1;
  std::mutex mutex_;
  std::uint64_t next_ = 0; ///< under mutex_; 0 until the manifests were looked at
};

/// The present Unix time in milliseconds, as checkpoints record it.
std::int64_t checkpointClockMs();

} // namespace toold::core
