// The intent journal that makes toold's file changes survive a kill: before the first staging file
// of a change exists, a journal file in <data-dir>/journal/ lists every target, the exact staging
// file that will replace it (or that it will be removed) and the folders that will be created. A
// change of several files moves the journal from "staging" to "committing" once every staged file
// is complete and flushed, and deletes it when done. At the next start, the journal of a process
// that no longer runs tells what to do (journal_replay): "staging" — remove the staging files
// (nothing was committed), "committing" — finish the renames and removals.
//
// The data directory is shared by toolds of other workspaces and by concurrent toolds, so every
// journal names its owner precisely enough (boot, pid namespace, pid, start time) that a running
// owner's journal is never touched, whatever pid reuse has done.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <variant>
#include <vector>

namespace toold::core {

/// One file of a change, as the journal lists it.
struct JournalEntry {
  std::filesystem::path target;
  std::filesystem::path staging; ///< the staging file that replaces the target; empty: it is removed
  /// For a removal: the file's identity when planned, so a replay removes that file and no other.
  std::uint64_t device = 0, inode = 0;
  bool operator==(const JournalEntry&) const = default;
};

enum class JournalState {
  Staging,     ///< staging files may exist; no target has been touched
  Committing,  ///< every staging file is complete; targets are being replaced and removed
  RollingBack, ///< a commit failed and toold was putting the previous contents back
};

/// The process that wrote a journal.
struct JournalOwner {
  std::string boot;          ///< /proc/sys/kernel/random/boot_id
  std::string pidNamespace;  ///< the target of /proc/self/ns/pid
  pid_t pid = 0;
  std::uint64_t startTime = 0; ///< clock ticks after boot (/proc/<pid>/stat, field 22)
  bool operator==(const JournalOwner&) const = default;

  static JournalOwner self();
};

enum class OwnerStatus {
  Running, ///< leave its journals alone
  Gone,    ///< its journals can be replayed
  Unknown, ///< another pid namespace on this boot: it cannot be checked, so it is left alone
};

/// Whether `owner` still runs: another boot means gone; the same pid with another start time is a
/// reused pid, so gone too.
OwnerStatus ownerStatus(const JournalOwner& owner);

struct JournalRecord {
  JournalOwner owner;
  JournalState state = JournalState::Staging;
  std::vector<std::filesystem::path> folders; ///< to be created, outermost first
  std::vector<JournalEntry> entries;
  bool complete = true; ///< false when the file ends early (its owner died while writing it)
  bool operator==(const JournalRecord&) const = default;
};

/// The journal's text: a header, the owner, the state, one line per folder and entry, and "end".
/// Paths are kept byte for byte (percent-escaping only '%', tab and newline).
std::string encodeJournal(const JournalRecord& record);
/// nullopt when the text is not a journal at all (no readable header and owner).
std::optional<JournalRecord> decodeJournal(std::string_view text);

/// The staging file a write of `target` uses: ".<name>.toold-<unique>" beside it.
std::filesystem::path stagingPathFor(const std::filesystem::path& target);

class ChangeJournal {
public:
  /// Journals go to `directory` (created when the first one is written).
  explicit ChangeJournal(std::filesystem::path directory);
  const std::filesystem::path& directory() const { return directory_; }

  /// One change in flight. Destroying it deletes its journal: call that when the change is done,
  /// or abandoned with nothing left behind.
  class Transaction {
  public:
    Transaction(std::filesystem::path file, JournalRecord record, bool durable);
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    ~Transaction();

    /// Rewrites the journal in `state` (a new file renamed over the old, flushed when durable).
    /// Returns what failed, or an empty string.
    std::string advance(JournalState state);
    const std::filesystem::path& file() const { return file_; }

  private:
    std::filesystem::path file_;
    JournalRecord record_;
    bool durable_;
  };

  /// Writes the journal of a change, in state "staging", before anything of it exists on disk.
  /// `durable` flushes it (and its directory) first, so it survives a power loss too; a single-file
  /// write skips that, since its worst case is a stale staging file. Returns what failed.
  std::variant<std::unique_ptr<Transaction>, std::string> begin(std::vector<std::filesystem::path> folders,
                                                                std::vector<JournalEntry> entries, bool durable);

private:
  std::filesystem::path directory_;
};

/// The journal of this process's single-file writes (core/files/atomic_file), set once at start-up; null
/// until then (tests, tools that write nothing), and writes are then not journalled.
ChangeJournal* processJournal();
void installProcessJournal(std::shared_ptr<ChangeJournal> journal);

/// Writes `content` to `path` through a temporary file and a rename, flushing both when `durable`.
/// Returns what failed, or an empty string. (Journals cannot use atomic_file: it journals.)
std::string writeWholeFile(const std::filesystem::path& path, std::string_view content, bool durable);

} // namespace toold::core
