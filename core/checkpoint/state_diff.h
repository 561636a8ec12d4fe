// What changed between two recorded states of (part of) a workspace: the paths created, modified,
// deleted, renamed (a deleted path whose exact content reappears under a created one) and whose mode
// alone changed. States are maps from path to record; a checkpoint keeps the records of the paths a
// call touched before and after it, so a diff never needs the whole tree.
#pragma once

#include "core/checkpoint/file_record.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace toold::core {

using WorkspaceState = std::map<std::string, FileRecord>;

enum class ChangeKind { Created, Modified, Deleted, Renamed, ModeChanged };

struct StateChange {
  ChangeKind kind = ChangeKind::Modified;
  std::string path;                 ///< the path now (for a rename, the new one)
  std::string fromPath;             ///< a rename's old path
  std::optional<FileRecord> before; ///< absent for a creation
  std::optional<FileRecord> after;  ///< absent for a deletion
  bool modeChanged = false;         ///< also for a modification or a rename that changed the mode
  bool operator==(const StateChange&) const = default;
};

/// The changes from `before` to `after`, in path order (a rename at its new path). A path in one
/// state and not the other was created or deleted; paths only one side recorded must therefore be
/// recorded absent by the caller, not left out, when they are meant to be compared. Renames pair
/// a deleted file or symlink with a created one of the same content, each used once; empty files
/// are never paired (any two are the same).
std::vector<StateChange> diffStates(const WorkspaceState& before, const WorkspaceState& after);

const char* changeKindName(ChangeKind kind);

} // namespace toold::core
