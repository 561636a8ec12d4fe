// Replacing a file's content all at once: the new bytes go to a temporary file in the same
// directory, which is flushed to disk and renamed over the target. A crash leaves the old file or
// the new one, never a mix, and readers never see a half-written file.
//
// The write is split into staging (the temporary file, complete and flushed) and committing (the
// rename), so that a change to several files can stage all of them before committing any.
//
// Every step is relative to a directory descriptor the caller holds (see core/workspace/held_location.h):
// the temporary file is created in that directory, and the rename and the flush happen there, so
// a symlink swapped into the path meanwhile cannot redirect any of them. The overloads taking a
// path alone are for toold's own files (the approval store), whose paths no model controls.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <sys/stat.h>
#include <sys/types.h>
#include <variant>

namespace toold::core {

/// A complete, flushed temporary file waiting to be renamed over its target.
struct StagedWrite {
  std::filesystem::path target;    ///< for messages; the write acts on its file name in the directory
  std::filesystem::path temporary; ///< beside `target`; likewise only its file name is used
  /// The temporary file's status after flushing; after the rename it is the target's (same inode,
  /// size and modification time), so a caller can remember exactly the version it wrote.
  struct stat status {};
};

/// Writes `content` to a temporary file in `directory` (the held folder of `target`, whose file name
/// is the target's name there) and flushes it. When `target` exists, the
/// temporary file takes its permission bits (and its owner and group, where the process may set
/// them), so replacing a file never changes who may use it; otherwise it is created with `mode`
/// (subject to the umask). The directory must exist. Returns what failed, with the system's
/// reason, leaving nothing behind.
std::variant<StagedWrite, std::string> stageFileWrite(int directory, const std::filesystem::path& target,
                                                      std::string_view content, mode_t mode);

/// How a change of many files stages: at the staging path its journal has already recorded, and
/// without a flush per file (the caller flushes them all at once before committing any).
struct StagingOptions {
  std::filesystem::path temporary; ///< empty: a fresh name beside the target
  bool flush = true;
};
std::variant<StagedWrite, std::string> stageFileWrite(int directory, const std::filesystem::path& target,
                                                      std::string_view content, mode_t mode,
                                                      const StagingOptions& options);

/// Renames the staged file over its target within `directory` (the one it was staged in) and
/// flushes the directory (unless `flushDirectory` is false: a change of many files flushes each
/// directory once). Returns an empty string, else what failed (the temporary file is then removed
/// and the target untouched).
std::string commitStagedWrite(int directory, const StagedWrite& staged, bool flushDirectory = true);

/// Removes a staged file that will not be committed from `directory`.
void discardStagedWrite(int directory, const StagedWrite& staged);

/// Stages and commits in one step in `directory`. Returns an empty string on success, else what
/// failed with the system's reason; on failure the target is untouched and no temporary file is
/// left behind. The staging file is listed in the process journal (change_journal.h), if one is
/// installed, for as long as it exists, so a kill cannot leave it behind for good. `written`, when
/// given, receives the new file's status.
std::string writeFileAtomically(int directory, const std::filesystem::path& target, std::string_view content,
                                mode_t mode, struct stat* written = nullptr);

/// The same for a path toold itself chose: its parent directory is opened by name.
std::string writeFileAtomically(const std::filesystem::path& target, std::string_view content, mode_t mode,
                                struct stat* written = nullptr);

} // namespace toold::core
