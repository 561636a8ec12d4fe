// Small pieces every built-in tool needs: resolving a path the model gave (with the workspace
// boundary asked about), chaining permission asks, loading a whole file for editing, and keeping
// diffs in metadata within the pipeline's size limit.
#pragma once

#include "builtins/files/line_window.h"
#include "core/workspace/held_location.h"
#include "core/tools/tool.h"
#include "core/workspace/workspace_paths.h"

#include <functional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace toold::builtins {

/// Asserts `asks` one after another; `done` gets the first refusal, or nothing when all are granted.
void assertEach(const core::ToolContext& context, std::vector<core::PermissionAsk> asks,
                core::PermissionContinuation done);

/// Resolves `path` and asserts `external_directory` when it is outside the workspace, then calls
/// `next` with the resolved path; a path that cannot be resolved, or a refusal, ends the call.
void resolveWithBoundary(const core::ToolContext& context, std::string_view path, core::PathKind kind,
                         const core::ToolDone& done, std::function<void(core::ResolvedPath)> next);

/// A whole file as loaded for editing.
struct LoadedFile {
  std::string bytes;
  FileIdentity identity;
  mode_t mode = 0644;
};

/// Files larger than this are not loaded for editing (the shell handles such files better).
inline constexpr std::uintmax_t kMaxEditableBytes = 64u << 20;

/// Loads the held regular file (see core::openHeldFile for what is refused); the error is for the
/// model.
std::variant<LoadedFile, std::string> loadFile(const core::HeldLocation& held);

/// True when the file at the canonical `path` (held from `root` when it is in it: ResolvedPath::root)
/// still has exactly `expected` bytes (or, with none, still does not exist): the check repeated
/// right before writing, after any permission wait. It
/// compares block by block, never holding a second copy of the file. A
/// path that can no longer be held as it was checked counts as changed, and `holdRefusal`, when
/// given, receives why (core::holdLocation's message), so the caller can say that instead.
bool unchangedSince(const std::filesystem::path& path, const core::WorkspaceRoot* root, const std::string* expected,
                    std::string* holdRefusal = nullptr);


/// A built-in tool that runs on the worker pool (file I/O blocks), guarded by `permission`; its
/// input schema is constant text (builtins/constant_json.h).
core::Tool workerTool(std::string description, std::string_view inputSchemaText, std::string permission, bool mutates,
                      core::ToolExecute execute);

/// A ToolFailure with `message`.
core::ToolCompletion failure(std::string message);

} // namespace toold::builtins
