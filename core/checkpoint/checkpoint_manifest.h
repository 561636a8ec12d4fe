// One checkpoint as the book keeps it: which call (or which restore) changed the workspace, when,
// and the records of the paths it changed, before and after — never the whole tree. A manifest is
// a small text file (header lines, then the records in file_record's line format), one per
// checkpoint, named by its sequence number in the book.
#pragma once

#include "core/checkpoint/state_diff.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toold::core {

enum class CheckpointKind { Call, Restore, Redo };

const char* checkpointKindName(CheckpointKind kind);

struct Checkpoint {
  std::uint64_t sequence = 0; ///< the book's, rising: a later checkpoint has a larger one
  CheckpointKind kind = CheckpointKind::Call;
  std::string sessionID, messageID, callID, tool;
  std::int64_t startedMs = 0, finishedMs = 0; ///< Unix milliseconds
  /// The changed paths before and after; a path missing on one side did not exist there.
  WorkspaceState before, after;
  /// Changed paths whose version before is not known: shown, never restored.
  std::vector<std::string> unrestorable;
  /// Another call that may change the workspace ran meanwhile: the changes may be partly its.
  bool concurrent = false;
  std::string note;
  /// A restore: the first checkpoint of the range it went back before. A redo: the restore it undid.
  std::uint64_t of = 0;

  /// Every changed path, sorted.
  std::vector<std::string> paths() const;
  bool operator==(const Checkpoint&) const = default;
};

std::string encodeCheckpoint(const Checkpoint& checkpoint);
/// nullopt when `text` is not a whole manifest (a torn write, another file).
std::optional<Checkpoint> decodeCheckpoint(std::string_view text);

} // namespace toold::core
