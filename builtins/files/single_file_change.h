// The one path every single-file mutation (write, edit, multiedit) takes, so the guarantees hold
// for all of them alike: the file's lock is held from loading to writing; the session's read stamp
// is checked before planning; the person is asked with the diff; the file is checked again after
// the wait; the write is atomic and keeps the mode; the stamp is refreshed afterwards.
#pragma once

#include "builtins/file_tools.h"
#include "builtins/files/read_stamps.h"
#include "builtins/lsp/change_diagnostics.h"
#include "builtins/text/unified_diff.h"
#include "builtins/tool_support.h"
#include "core/tools/tool.h"
#include "core/workspace/workspace_paths.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>

namespace toold::builtins {

/// What a tool wants the file to become.
struct PlannedContent {
  std::string bytes;
  core::json metadata = core::json::object(); ///< merged into the result's metadata
};

/// Decides the new bytes from the current file (nullopt when it does not exist), or refuses.
/// Runs under the file's lock, on a worker.
using PlanContent = std::function<std::variant<PlannedContent, core::ToolCompletion>(const std::optional<LoadedFile>&)>;

struct ChangedFile {
  core::ResolvedPath path;
  std::string relative;           ///< as the permission resource names it
  bool existed = false;
  core::json metadata;            ///< the plan's metadata plus {filepath, exists, diff, filediff}
  /// What the language servers said of the new version (empty when none serves the file), and
  /// the other files whose errors changed with it.
  std::vector<FileDiagnostics> diagnostics;
  std::vector<OtherFileErrors> otherErrors;
};

/// Appends what happened to the file after it was written to `text` and its metadata: the
/// formatter's work (or failure), then the language servers' blocks; `withOthers` (write) lists
/// other files the change broke too.
void appendChangeDiagnostics(std::string& text, ChangedFile& changed, const core::Location& location, bool withOthers);

/// What replacing `current` whole with `content` writes: a text file keeps what the model cannot
/// see in read's output — its UTF-8 BOM, and CRLF line ends when `content` is plain LF. Content
/// that brings its own "\r\n" or BOM is written as given, and so is anything for a new file.
std::string keepTextStyle(const std::optional<LoadedFile>& current, std::string content);

/// Runs the mutation (see the file comment). `stampRule` applies when the file exists. `finish`
/// gets the change once it is on disk and builds the result; any refusal or failure goes to `done`.
void changeSingleFile(std::shared_ptr<FileTools> files, core::ToolContext context, core::ResolvedPath path,
                      StampRule stampRule, PlanContent plan, std::function<void(ChangedFile)> finish,
                      core::ToolDone done);

} // namespace toold::builtins
