// The managed folder `<data-dir>/tool-output/`: one file per truncated tool result, holding the
// full text the model was shown only a preview of, so it can read the rest later. Files are
// named `tool_<id>` with time-sortable ids. Retention is bounded three ways: one file keeps at
// most `fileBytes` of an output (its head and tail), the folder at most `folderBytes` (the oldest
// files go first), and files older than a week go at the hourly clean-up.
#pragma once

#include "core/output/kept_text.h"
#include "core/output/recent_outputs.h"
#include "core/output/retention_ledger.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>

namespace toold::core {

/// The full text could not be kept. The message names the path and the system's reason.
struct StorageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// How much the folder keeps. Both are positive.
struct RetentionLimits {
  /// All kept files together: a few large outputs, and thousands of ordinary ones.
  std::uint64_t folderBytes = std::uint64_t{4} << 30;
  /// One output's file: far more than a model reads of one output, little enough that a command
  /// printing without end does not fill the disk.
  std::uint64_t fileBytes = std::uint64_t{256} << 20;
};

/// Where a bounded log is put in order before it is renamed over the log: `.<its name>.ordering`
/// beside it, hidden and outside the budget's count for the seconds it exists.
std::filesystem::path orderingPathFor(const std::filesystem::path& log);

class OutputStore {
public:
  /// The folder is `dataDir / "tool-output"`, made absolute now so every path handed out names
  /// the same file whatever the working directory is later. Nothing is created, nor listed, until
  /// a file is kept.
  explicit OutputStore(std::filesystem::path dataDir, RetentionLimits limits = {});

  const std::filesystem::path& folder() const { return folder_; }
  const RetentionLimits& limits() const { return limits_; }

  /// Writes `text` to a new file `tool_<id>` (created exclusively, mode 0600; the folder and any
  /// missing parent are created 0700) and returns its absolute path; a text over fileBytes keeps
  /// its head and tail around a line saying what was left out (leftOutLine). Then removes the
  /// oldest files while the folder is over folderBytes. Thread-safe.
  /// Throws StorageError when the file cannot be written whole; no partial file is left behind.
  /// A text the same as one of the last outputs kept whole (RecentOutputs) whose file still holds
  /// it byte for byte names that file again instead, its modification time set to now when it is
  /// a minute old or more. A file read and found holding the text, whose stat shows it unchanged
  /// since (KeptFileSeen), is not read again.
  RetainedText retain(std::string_view text);

  /// A file in the folder written by its own writer (a command's log): counted, never removed
  /// while being written. Thread-safe, as are the two below.
  void writing(const std::filesystem::path& path);
  /// Its writer is done, leaving `bytes` on disk: it may be removed from now on, and the oldest
  /// files go while the folder is over its budget (never this one).
  void finished(const std::filesystem::path& path, std::uint64_t bytes);
  /// Its writer removed it.
  void forget(const std::filesystem::path& path);

  /// The bytes the folder holds, as far as this store knows.
  std::uint64_t keptBytes();

  struct CleanupReport {
    std::size_t deleted = 0;
    std::size_t kept = 0;   ///< younger `tool_` files and every entry not named `tool_...`
    std::size_t failed = 0; ///< entries whose age could not be read or that could not be removed
  };
  /// Deletes the regular files named `tool_...` last modified more than `maxAge` before `now`, and
  /// ordering files (orderingPathFor) left by a toold that died while writing one, an hour after
  /// their last write; counts what is left afresh (other toold processes write to the folder too).
  /// Never throws: a missing folder is an empty one, and errors are counted, not raised.
  CleanupReport cleanup(std::filesystem::file_time_type now,
                        std::chrono::hours maxAge = std::chrono::hours(24 * 7));

private:
  /// Requires mutex_. The folder is listed once, at the first file kept, then only counted.
  void scanOnce();
  /// Requires mutex_. Removes the oldest files while the folder is over its budget.
  void evictOldest(const std::string& keep);

  std::filesystem::path folder_;
  RetentionLimits limits_;
  std::mutex mutex_;
  RetentionLedger ledger_;
  RecentOutputs recent_;
  bool scanned_ = false;
};

/// A new id: 14 lowercase hex digits of (milliseconds since the epoch * 0x1000 + a per-process
/// counter, kept increasing even when the clock steps back), then 14 random base62 characters.
/// Within a process ids never repeat and sort in creation order. 14 digits hold the whole value
/// until the year 2527; 12 (opencode's width) would wrap every 795 days and break the order.
std::string newOutputId();

} // namespace toold::core
