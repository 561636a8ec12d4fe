// Turning a parsed patch into the exact changes it makes, before anything is written: every file
// is loaded once, every operation applied in order to the running state (so two Update sections
// of one file both count), every chunk located, and every overwrite checked against the session's
// read stamps. The result is the list of file changes to commit as one, and what to show.
#pragma once

#include "builtins/file_tools.h"
#include "builtins/files/file_transaction.h"
#include "builtins/patch/patch_parser.h"
#include "builtins/text/unified_diff.h"
#include "core/workspace/workspace_paths.h"

#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace toold::builtins {

/// A patch operation with its paths resolved.
struct ResolvedOperation {
  const PatchFileOp* operation = nullptr;
  core::ResolvedPath path;
  std::optional<core::ResolvedPath> moveTo;
};

struct PatchedFile {
  std::string type;         ///< "add", "update", "move" or "delete"
  std::string filePath;     ///< absolute path as named
  std::string relativePath; ///< workspace-relative (the move target when moving)
  std::string movePath;     ///< absolute move target, or empty
  UnifiedDiff diff;
};

struct PatchPlan {
  std::vector<PatchedFile> files;   ///< one per operation, in order
  std::vector<FileChange> changes;  ///< one per path whose bytes change, with what it had
  std::string summary;              ///< "A x\nM y\nD z"
};

/// Plans the patch for `sessionID`. The error is for the model and starts with
/// "apply_patch verification failed: ".
std::variant<PatchPlan, std::string> planPatch(const std::vector<ResolvedOperation>& operations, const FileTools& files,
                                               const std::string& sessionID, const core::Location& location);

} // namespace toold::builtins
