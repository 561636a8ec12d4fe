#include "builtins/files/single_file_change.h"

#include "builtins/text/text_encoding.h"
#include "core/checkpoint/call_recorder.h"
#include "core/base/heap_trim.h"
#include "core/files/atomic_file.h"
#include "core/process/process_runner.h"
#include "core/process/program_lookup.h"
#include "core/sandbox/command_sandbox.h"

#include <cctype>
#include <cstdlib>

#include <sys/stat.h>

namespace toold::builtins {

namespace {

using core::json;

constexpr std::chrono::seconds kFormatterTimeout{10};

struct Pending {
  /// Held for the whole change: released last, once the versions below are freed.
  core::DeferredHeapTrim::Hold trimHold = core::processHeapTrim().hold();
  std::shared_ptr<FileTools> files;
  core::ToolContext context;
  core::ResolvedPath path;
  std::string display;
  std::string relative;
  std::optional<LoadedFile> current;
  PlannedContent planned;
  ShownDiff diff; ///< as the ask and the metadata show it: indentation trimmed, cut at 8 KiB
  std::function<void(ChangedFile)> finish;
  core::ToolDone done;
  core::PathLocks::Lease lease;

  /// Ends the call, then releases the path. A waiting mutation of it may start on this thread
  /// when the lease goes, so the answer is sent first rather than after that one.
  void end(core::ToolCompletion completion) {
    done(std::move(completion));
    lease.reset();
  }

  /// After a large file, the freed pages go back to the system: the versions themselves were
  /// mapped blocks of their own, but the diff's and the matcher's many small blocks are spread
  /// through the heap, and glibc keeps such pages until told. Told once changes pause (see
  /// core/base/heap_trim.h), so that a change right after this one reuses them.
  ~Pending() {
    const std::size_t held = (current ? current->bytes.size() : 0) + planned.bytes.size();
    if (held >= kTrimAfterBytes) trimHold.markLarge();
  }
  static constexpr std::size_t kTrimAfterBytes = 1 << 20;
};

// What a diff shows of a file: its lines, without the BOM and the "\r" of CRLF ends. A copy is
// made only when there is a "\r" to drop: the diff runs while both versions are held, and two more
// copies of a large file would be most of an edit's memory.
std::string_view diffText(std::string_view bytes, std::string& storage) {
  if (bytes.starts_with("\xEF\xBB\xBF")) bytes.remove_prefix(3);
  if (bytes.find('\r') == std::string_view::npos) return bytes;
  storage = toLf(bytes);
  return storage;
}

/// The language servers judge the new version, then the tool answers. The path is free while
/// they do: the wait is theirs, not the file's.
void judge(const std::shared_ptr<Pending>& pending, ChangedFile changed) {
  auto& p = *pending;
  auto lsp = p.files->lsp;
  if (!lsp || p.planned.bytes.size() > kMaxLspDocumentBytes || !lsp->serves(p.path.canonical)) {
    p.finish(std::move(changed));
    p.lease.reset(); // the next mutation of this path may start (see end())
    return;
  }
  ChangedText text{p.path.canonical, p.path.given.string(), p.planned.bytes, {}};
  {
    std::string before;
    std::string after;
    text.changes = core::changedLines(p.current ? diffText(p.current->bytes, before) : std::string_view(),
                                      diffText(p.planned.bytes, after));
  }
  auto errorsBefore = lsp->filesWithErrors();
  // The path is freed before the answer: the checkpoint is written first, so that a restore that
  // takes the path meanwhile finds this change among the session's.
  if (p.context.checkpoint) p.context.checkpoint->finish();
  p.lease.reset();
  checkChangedFiles(lsp, {std::move(text)},
                    [pending, lsp, changed = std::move(changed), errorsBefore = std::move(errorsBefore)](
                        std::vector<FileDiagnostics> results) mutable {
                      changed.diagnostics = std::move(results);
                      changed.otherErrors =
                          otherFilesWithNewErrors(errorsBefore, lsp->filesWithErrors(), pending->path.canonical);
                      pending->finish(std::move(changed));
                    });
}

/// The project's formatter for the file, when the config turns formatters on and one applies.
std::optional<core::FormattingCommand> formatterFor(const Pending& p) {
  if (!p.files->formatters.enabled || !p.files->processes) return std::nullopt;
  const char* path = std::getenv("PATH");
  return core::formatterForFile(p.files->formatters, p.path.canonical, p.context.location->directory,
                                [path](const std::string& program) {
                                  return core::findProgram(program, {}, path ? path : "/usr/bin:/bin");
                                });
}

/// What the formatter made of the file: the diff, the stamp and the text the servers see are of
/// the formatted file, so the model's next edit starts from what is on disk.
void reformatted(Pending& p, ChangedFile& changed, const std::string& name, const core::CapturedRun& run) {
  if (!run.outcome.status || !run.outcome.status->succeeded()) {
    std::string why = run.outcome.spawnError.empty() ? run.outcome.describe() : run.outcome.spawnError;
    std::string said = run.stderrTail.substr(0, 500);
    while (!said.empty() && std::isspace(static_cast<unsigned char>(said.back()))) said.pop_back();
    if (!said.empty()) why += ": " + said;
    changed.metadata["formatter"] = json{{"name", name}, {"error", why}};
    return;
  }
  auto held = core::holdLocation(p.path, core::HoldPurpose::Read);
  if (auto* error = std::get_if<std::string>(&held)) {
    changed.metadata["formatter"] = json{{"name", name}, {"error", *error}};
    return;
  }
  auto loaded = loadFile(std::get<core::HeldLocation>(held));
  if (auto* error = std::get_if<std::string>(&loaded)) {
    changed.metadata["formatter"] = json{{"name", name}, {"error", *error}};
    return;
  }
  auto& file = std::get<LoadedFile>(loaded);
  changed.metadata["formatter"] = json{{"name", name}, {"changed", file.bytes != p.planned.bytes}};
  if (file.bytes == p.planned.bytes) return;
  p.planned.bytes = std::move(file.bytes);
  if (p.context.checkpoint) p.context.checkpoint->changed(p.path.canonical, p.planned.bytes, file.mode);
  p.files->stamps.record(p.context.sessionID, p.path.canonical,
                         ReadStamp{file.identity, contentHash(p.planned.bytes), std::chrono::system_clock::now()});
  std::string before;
  std::string after;
  p.diff = shownDiff(p.relative, p.current ? diffText(p.current->bytes, before) : std::string_view(),
                     diffText(p.planned.bytes, after));
  changed.metadata["diff"] = p.diff.text;
  changed.metadata["filediff"] =
      json{{"file", p.path.given.string()}, {"additions", p.diff.additions}, {"deletions", p.diff.deletions}};
}

/// Runs the formatter on the written file (in the commands' sandbox, 10 s at most), with the
/// path still locked: it rewrites the file.
void format(const std::shared_ptr<Pending>& pending, ChangedFile changed, core::FormattingCommand command) {
  auto& p = *pending;
  core::ProcessSpec spec{.argv = command.argv, .cwd = p.context.location->directory, .timeout = kFormatterTimeout};
  for (const auto& [key, value] : command.environment) spec.extraEnv.push_back(key + "=" + value);
  if (p.files->sandbox) p.files->sandbox->wrap(spec, core::SandboxedProcess::CommandTool);
  core::runCaptured(*p.files->processes, std::move(spec), p.context.cancellation, 64 * 1024, 2048,
                    [pending, changed = std::move(changed), name = command.name](core::CapturedRun run) mutable {
                      try {
                        reformatted(*pending, changed, name, run);
                        judge(pending, std::move(changed));
                      } catch (const std::exception& e) {
                        pending->end(core::ToolDefect{e.what()});
                      }
                    });
}

void write(const std::shared_ptr<Pending>& pending) {
  auto& p = *pending;
  if (p.context.cancellation.isCancelled()) return p.end(failure("The call was cancelled; nothing was written."));
  std::string holdRefusal;
  if (!unchangedSince(p.path.canonical, p.path.root.get(), p.current ? &p.current->bytes : nullptr, &holdRefusal)) {
    if (!holdRefusal.empty()) return p.end(failure(holdRefusal));
    return p.end(failure("File " + p.display +
                         " changed on disk while the change was waiting for permission; nothing was written. "
                         "Read it again and redo the change."));
  }
  // Held again now, creating missing folders: a folder swapped for a symlink while the person was
  // deciding is met here, and the write refused, rather than followed.
  auto held = core::holdLocation(p.path, core::HoldPurpose::Write);
  if (auto* error = std::get_if<std::string>(&held)) return p.end(failure(*error));
  const auto& location = std::get<core::HeldLocation>(held);
  if (location.isDirectory()) return p.end(failure("Path is a directory, not a file: " + p.display));
  // The checkpoint takes both versions from memory: the old before the commit, the new after.
  const auto& checkpoint = p.context.checkpoint;
  if (checkpoint)
    checkpoint->willChange(p.path.canonical, p.current ? std::optional<std::string_view>(p.current->bytes) : std::nullopt,
                           p.current ? p.current->mode : 0644);
  struct stat written {};
  if (auto error = core::writeFileAtomically(location.directory.get(), p.path.canonical, p.planned.bytes, 0644, &written);
      !error.empty())
    return p.end(failure("Cannot write " + p.display + ": " + error));
  if (checkpoint) checkpoint->changed(p.path.canonical, p.planned.bytes, written.st_mode, &written);
  p.files->stamps.record(p.context.sessionID, p.path.canonical,
                         ReadStamp{identityOf(written), contentHash(p.planned.bytes), std::chrono::system_clock::now()});

  ChangedFile changed;
  changed.path = p.path;
  changed.relative = p.relative;
  changed.existed = p.current.has_value();
  changed.metadata = p.planned.metadata;
  changed.metadata["filepath"] = p.path.given.string();
  changed.metadata["exists"] = changed.existed;
  changed.metadata["diff"] = p.diff.text;
  changed.metadata["filediff"] =
      json{{"file", p.path.given.string()}, {"additions", p.diff.additions}, {"deletions", p.diff.deletions}};
  if (auto command = formatterFor(p)) return format(pending, std::move(changed), std::move(*command));
  judge(pending, std::move(changed));
}

void planAndAsk(const std::shared_ptr<Pending>& pending, StampRule stampRule, const PlanContent& plan) {
  auto& p = *pending;
  if (p.context.cancellation.isCancelled()) return p.end(failure("The call was cancelled; nothing was written."));
  auto held = core::holdLocation(p.path, core::HoldPurpose::Read);
  if (auto* error = std::get_if<std::string>(&held)) return p.end(failure(*error));
  const auto& location = std::get<core::HeldLocation>(held);
  if (location.exists()) {
    auto loaded = loadFile(location);
    if (auto* error = std::get_if<std::string>(&loaded)) return p.end(failure(*error));
    p.current = std::move(std::get<LoadedFile>(loaded));
    auto stale = checkStamp(p.files->stamps, p.context.sessionID, p.path.canonical, p.display, p.current->identity,
                            p.current->bytes, stampRule);
    if (!stale.empty()) return p.end(failure(stale));
  }
  auto planned = plan(p.current);
  if (auto* refusal = std::get_if<core::ToolCompletion>(&planned)) return p.end(std::move(*refusal));
  p.planned = std::move(std::get<PlannedContent>(planned));
  {
    std::string before;
    std::string after;
    p.diff = shownDiff(p.relative, p.current ? diffText(p.current->bytes, before) : std::string_view(),
                       diffText(p.planned.bytes, after));
  }

  core::PermissionAsk ask{"edit", {p.relative}, {"*"}, json{{"filepath", p.path.given.string()}, {"diff", p.diff.text}}};
  p.context.assertPermission(std::move(ask), [pending](std::optional<core::ToolCompletion> refusal) {
    if (refusal) return pending->end(std::move(*refusal));
    try {
      write(pending);
    } catch (const std::exception& e) {
      pending->end(core::ToolDefect{e.what()});
    }
  });
}

} // namespace

void appendChangeDiagnostics(std::string& text, ChangedFile& changed, const core::Location& location, bool withOthers) {
  if (const auto formatter = changed.metadata.find("formatter"); formatter != changed.metadata.end()) {
    const std::string name = formatter->value("name", "");
    if (formatter->contains("error"))
      text += "\n\nThe formatter " + name + " failed (" + formatter->value("error", "") + "); the file is as written.";
    else if (formatter->value("changed", false))
      text += "\n\nThe formatter " + name + " reformatted the file: read it before editing it again.";
  }
  static const std::vector<OtherFileErrors> kNone;
  appendDiagnostics(text, changed.metadata, changed.diagnostics, DiagnosticsWording::ThisFile, location.directory,
                    withOthers ? changed.otherErrors : kNone);
}

std::string keepTextStyle(const std::optional<LoadedFile>& current, std::string content) {
  if (!current) return content;
  // A file with neither a BOM nor a '\r' has no style to keep: spared decoding (and copying) it.
  if (!current->bytes.starts_with("\xEF\xBB\xBF") && current->bytes.find('\r') == std::string::npos) return content;
  auto decoded = decodeText(current->bytes);
  auto* text = std::get_if<DecodedText>(&decoded);
  if (!text) return content;
  if (text->lineEnding == LineEnding::Crlf && content.find("\r\n") == std::string::npos)
    content = withLineEnding(content, LineEnding::Crlf);
  if (text->bom && !content.starts_with("\xEF\xBB\xBF")) content.insert(0, "\xEF\xBB\xBF");
  return content;
}

void changeSingleFile(std::shared_ptr<FileTools> files, core::ToolContext context, core::ResolvedPath path,
                      StampRule stampRule, PlanContent plan, std::function<void(ChangedFile)> finish,
                      core::ToolDone done) {
  if (path.inToolOutput) return done(failure(core::toolOutputIsReadOnly(path.given.string())));
  auto pending = std::make_shared<Pending>();
  pending->files = files;
  pending->display = path.given.string();
  pending->relative = core::workspaceRelative(path, *context.location);
  pending->context = std::move(context);
  pending->path = std::move(path);
  pending->finish = std::move(finish);
  pending->done = std::move(done);
  const std::string key = pending->path.canonical.string();
  files->locks->acquire(key, [pending, stampRule, plan = std::move(plan)](core::PathLocks::Lease lease) {
    pending->lease = std::move(lease);
    try {
      planAndAsk(pending, stampRule, plan);
    } catch (const std::exception& e) {
      pending->end(core::ToolDefect{e.what()});
    }
  });
}

} // namespace toold::builtins
