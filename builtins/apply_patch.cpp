#include "builtins/apply_patch.h"

#include "builtins/constant_json.h"
#include "builtins/files/file_transaction.h"
#include "builtins/lsp/change_diagnostics.h"
#include "builtins/patch/patch_parser.h"
#include "builtins/patch/patch_plan.h"
#include "builtins/tool_support.h"
#include "core/checkpoint/call_recorder.h"

#include <set>
#include <unordered_set>

namespace toold::builtins {

namespace {

using core::json;

const char* kDescription = R"(Applies a patch that adds, deletes, updates or moves files. The whole patch applies, or nothing does.

The patch is enclosed in "*** Begin Patch" and "*** End Patch". Each file operation starts with a header:
*** Add File: <path>      followed by the new file's lines, each prefixed with "+"
*** Delete File: <path>   nothing follows
*** Update File: <path>   optionally followed by "*** Move to: <new path>", then one or more chunks

A chunk starts with "@@" (optionally "@@ <a line such as a class or function header>" to say where), then lines prefixed with " " (context, unchanged), "-" (removed) or "+" (added). Give about 3 lines of context before and after each change; if that is not unique in the file, add an "@@" line naming the enclosing class or function. "*** End of File" after a chunk anchors it at the end of the file.

Example:
*** Begin Patch
*** Add File: hello.txt
+Hello world
*** Update File: src/app.py
@@ def greet():
-    print("Hi")
+    print("Hello, world!")
*** Delete File: obsolete.txt
*** End Patch

Paths are relative to the workspace (absolute paths work too). Context lines must match the file; whitespace at line ends and typographic quotes are tolerated.)";

constexpr auto kInputSchema = compactJson(R"json(
{
  "additionalProperties": false,
  "properties": {
    "patchText": {
      "description": "The full patch text that describes all changes to be made",
      "type": "string"
    }
  },
  "required": ["patchText"],
  "type": "object"
})json");

struct PatchCall {
  std::shared_ptr<FileTools> files;
  core::ToolContext context;
  core::ToolDone done;
  ParsedPatch patch;
  std::vector<ResolvedOperation> operations;
  std::vector<core::PathLocks::Lease> leases;
  PatchPlan plan;

  /// Answers, then releases the paths (a waiting mutation may start on this thread).
  void end(core::ToolCompletion completion) {
    done(std::move(completion));
    leases.clear();
  }
};

// The checkpoint takes both versions from the plan, which holds them: every old one before the
// commit (`committed` null), every new one after.
void tellCheckpoint(core::CallRecorder* checkpoint, const std::vector<FileChange>& changes, const CommitResult* committed) {
  if (!checkpoint) return;
  std::size_t written = 0;
  for (const auto& change : changes) {
    if (!committed) {
      checkpoint->willChange(change.target, change.previous ? std::optional<std::string_view>(*change.previous) : std::nullopt,
                             change.previousMode);
    } else if (!change.content) {
      checkpoint->changed(change.target, std::nullopt, 0);
    } else {
      const struct stat& status = committed->written[written++];
      checkpoint->changed(change.target, *change.content, status.st_mode, &status);
    }
  }
}

void commit(const std::shared_ptr<PatchCall>& call) {
  auto& c = *call;
  if (c.context.cancellation.isCancelled()) return c.end(failure("The call was cancelled; nothing was written."));
  // The paths were resolved in this Location: held from its workspace folder.
  const core::WorkspaceRoot* root = c.context.location ? c.context.location->root.get() : nullptr;
  for (const auto& change : c.plan.changes) {
    std::string holdRefusal;
    if (unchangedSince(change.target, root, change.previous ? &*change.previous : nullptr, &holdRefusal)) continue;
    if (!holdRefusal.empty()) return c.end(failure("apply_patch failed: " + holdRefusal));
    return c.end(failure("apply_patch failed: " + change.target.string() +
                         " changed on disk while the patch was waiting for permission; nothing was written. "
                         "Read it again and redo the patch."));
  }
  tellCheckpoint(c.context.checkpoint.get(), c.plan.changes, nullptr);
  auto committed = commitFileChanges(c.plan.changes, root);
  if (!committed.error.empty()) return c.end(failure("apply_patch failed: " + committed.error));
  tellCheckpoint(c.context.checkpoint.get(), c.plan.changes, &committed);
  std::size_t written = 0;
  for (const auto& change : c.plan.changes) {
    if (!change.content) {
      c.files->stamps.forget(c.context.sessionID, change.target);
      continue;
    }
    c.files->stamps.record(c.context.sessionID, change.target,
                           ReadStamp{identityOf(committed.written[written++]), contentHash(*change.content),
                                     std::chrono::system_clock::now()});
  }
  std::string diff;
  json files = json::array();
  for (const auto& file : c.plan.files) {
    diff += file.diff.text;
    json entry{{"filePath", file.filePath}, {"relativePath", file.relativePath}, {"type", file.type},
               {"additions", file.diff.additions}, {"deletions", file.diff.deletions}};
    if (!file.movePath.empty()) entry["movePath"] = file.movePath;
    files.push_back(std::move(entry));
  }
  core::ToolResult result{std::nullopt, json("Success. Updated the following files:\n" + c.plan.summary),
                          json{{"diff", boundedDiff(trimDiffIndentation(diff))}, {"files", std::move(files)}}};
  // The language servers judge every file written (not those removed); the paths are free meanwhile.
  std::vector<ChangedText> texts;
  if (auto lsp = c.files->lsp) {
    for (const auto& change : c.plan.changes) {
      if (!change.content || change.content->size() > kMaxLspDocumentBytes || !lsp->serves(change.target)) continue;
      texts.push_back(ChangedText{change.target, change.target.string(), *change.content,
                                  core::changedLines(change.previous ? *change.previous : std::string(), *change.content)});
    }
  }
  if (texts.empty()) return c.end(std::move(result));
  // The paths are freed before the answer: the checkpoint is written first (see single_file_change).
  if (c.context.checkpoint) c.context.checkpoint->finish();
  c.leases.clear();
  const auto workspace = c.context.location->directory;
  checkChangedFiles(c.files->lsp, std::move(texts),
                    [call, workspace, result = std::move(result)](std::vector<FileDiagnostics> reports) mutable {
                      std::string text = result.content->get<std::string>();
                      appendDiagnostics(text, *result.metadata, reports, DiagnosticsWording::ByPath, workspace);
                      result.content = json(std::move(text));
                      call->end(std::move(result));
                    });
}

void planAndAsk(const std::shared_ptr<PatchCall>& call) {
  auto& c = *call;
  auto planned = planPatch(c.operations, *c.files, c.context.sessionID, *c.context.location);
  if (auto* error = std::get_if<std::string>(&planned)) return c.end(failure(*error));
  c.plan = std::move(std::get<PatchPlan>(planned));
  std::vector<std::string> resources;
  std::unordered_set<std::string> listed; // a search of `resources` per file is quadratic in big patches
  std::string paths, diff;
  json files = json::array();
  for (const auto& file : c.plan.files) {
    if (listed.insert(file.relativePath).second) resources.push_back(file.relativePath);
    paths += (paths.empty() ? "" : ", ") + file.relativePath;
    diff += file.diff.text;
    json entry{{"filePath", file.filePath}, {"relativePath", file.relativePath}, {"type", file.type},
               {"additions", file.diff.additions}, {"deletions", file.diff.deletions}};
    if (!file.movePath.empty()) entry["movePath"] = file.movePath;
    files.push_back(std::move(entry));
  }
  // A moved file's old path is touched too.
  for (const auto& operation : c.operations)
    if (operation.moveTo) {
      auto source = core::workspaceRelative(operation.path, *c.context.location);
      if (listed.insert(source).second) resources.push_back(source);
    }
  core::PermissionAsk ask{"edit", resources, {"*"},
                          json{{"filepath", paths}, {"diff", boundedDiff(trimDiffIndentation(diff))}, {"files", files}}};
  c.context.assertPermission(std::move(ask), [call](std::optional<core::ToolCompletion> refusal) {
    if (refusal) return call->end(std::move(*refusal));
    try {
      commit(call);
    } catch (const std::exception& e) {
      call->end(core::ToolDefect{e.what()});
    }
  });
}

// Takes the locks of every path in one step (see PathLocks::acquireAll), then plans and asks.
void lockAll(const std::shared_ptr<PatchCall>& call, std::vector<std::string> keys) {
  call->files->locks->acquireAll(std::move(keys), [call](core::PathLocks::Lease lease) {
    call->leases.push_back(std::move(lease));
    try {
      planAndAsk(call);
    } catch (const std::exception& e) {
      call->end(core::ToolDefect{e.what()});
    }
  });
}

void run(const std::shared_ptr<PatchCall>& call) {
  auto& c = *call;
  std::vector<core::PermissionAsk> asks;
  std::set<std::string> asked;
  std::set<std::string> keys;
  auto resolve = [&](const std::string& path) -> std::optional<core::ResolvedPath> {
    core::ResolvedPath resolved;
    try {
      resolved = core::resolveToolPath(path, *c.context.location);
    } catch (const core::PathError& e) {
      c.end(failure("apply_patch verification failed: " + path + ": " + e.what()));
      return std::nullopt;
    }
    if (resolved.inToolOutput) {
      c.end(failure("apply_patch verification failed: " + core::toolOutputIsReadOnly(resolved.given.string())));
      return std::nullopt;
    }
    if (auto ask = core::externalDirectoryAsk(resolved, core::PathKind::File))
      if (asked.insert(ask->resources.front()).second) asks.push_back(std::move(*ask));
    keys.insert(resolved.canonical.string());
    return resolved;
  };
  for (const auto& operation : c.patch.operations) {
    ResolvedOperation resolved;
    resolved.operation = &operation;
    auto path = resolve(operation.path);
    if (!path) return;
    resolved.path = std::move(*path);
    if (operation.movePath) {
      auto target = resolve(*operation.movePath);
      if (!target) return;
      resolved.moveTo = std::move(*target);
    }
    c.operations.push_back(std::move(resolved));
  }
  assertEach(c.context, std::move(asks), [call, keys = std::vector<std::string>(keys.begin(), keys.end())](
                                             std::optional<core::ToolCompletion> refusal) mutable {
    if (refusal) return call->end(std::move(*refusal));
    lockAll(call, std::move(keys));
  });
}

} // namespace

core::Tool makeApplyPatchTool(std::shared_ptr<FileTools> files) {
  auto execute = [files](json input, core::ToolContext context, core::ToolDone done) {
    const auto text = input["patchText"].get<std::string>();
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) return done(failure("patchText is required"));
    auto parsed = parsePatch(text);
    if (auto* error = std::get_if<PatchParseError>(&parsed)) {
      if (error->message == "empty patch") return done(failure("patch rejected: empty patch"));
      return done(failure("apply_patch verification failed: " + error->message));
    }
    auto call = std::make_shared<PatchCall>();
    call->files = files;
    call->context = std::move(context);
    call->done = std::move(done);
    call->patch = std::move(std::get<ParsedPatch>(parsed));
    run(call);
  };
  return workerTool(kDescription, kInputSchema.view(), "edit", true, std::move(execute));
}

} // namespace toold::builtins
