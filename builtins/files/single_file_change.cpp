#include "builtins/files/single_file_change.h"

#include "builtins/text/text_encoding.h"
#include "core/files/atomic_file.h"

#include <malloc.h>
#include <sys/stat.h>

namespace toold::builtins {

namespace {

using core::json;

struct Pending {
  std::shared_ptr<FileTools> files;
  core::ToolContext context;
  core::ResolvedPath path;
  std::string display;
  std::string relative;
  std::optional<LoadedFile> current;
  PlannedContent planned;
  UnifiedDiff diff;
  std::function<void(ChangedFile)> finish;
  core::ToolDone done;
  core::PathLocks::Lease lease;

  /// Ends the call, then releases the path. A waiting mutation of it may start on this thread
  /// when the lease goes, so the answer is sent first rather than after that one.
  void end(core::ToolCompletion completion) {
    done(std::move(completion));
    lease.reset();
  }

  /// After a large file, hands the freed pages back to the system: the versions themselves were
  /// mapped blocks of their own, but the diff's and the matcher's many small blocks are spread
  /// through the heap, and glibc keeps such pages until told.
  ~Pending() {
    const std::size_t held = (current ? current->bytes.size() : 0) + planned.bytes.size();
    if (held < kTrimAfterBytes) return;
    current.reset();
    planned = {};
    diff = {};
    ::malloc_trim(0);
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
  struct stat written {};
  if (auto error = core::writeFileAtomically(location.directory.get(), p.path.canonical, p.planned.bytes, 0644, &written);
      !error.empty())
    return p.end(failure("Cannot write " + p.display + ": " + error));
  p.files->stamps.record(p.context.sessionID, p.path.canonical,
                         ReadStamp{identityOf(written), contentHash(p.planned.bytes), std::chrono::system_clock::now()});

  ChangedFile changed;
  changed.path = p.path;
  changed.relative = p.relative;
  changed.existed = p.current.has_value();
  changed.diff = p.diff;
  changed.metadata = p.planned.metadata;
  changed.metadata["filepath"] = p.path.given.string();
  changed.metadata["exists"] = changed.existed;
  changed.metadata["diff"] = boundedDiff(trimDiffIndentation(p.diff.text));
  changed.metadata["filediff"] =
      json{{"file", p.path.given.string()}, {"additions", p.diff.additions}, {"deletions", p.diff.deletions}};
  p.finish(std::move(changed));
  p.lease.reset(); // the next mutation of this path may start (see end())
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
    p.diff = unifiedDiff(p.relative, p.current ? diffText(p.current->bytes, before) : std::string_view(),
                         diffText(p.planned.bytes, after));
  }

  core::PermissionAsk ask{"edit", {p.relative}, {"*"},
                          json{{"filepath", p.path.given.string()}, {"diff", boundedDiff(trimDiffIndentation(p.diff.text))}}};
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

std::string keepTextStyle(const std::optional<LoadedFile>& current, std::string content) {
  if (!current) return content;
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
  files->locks.acquire(key, [pending, stampRule, plan = std::move(plan)](core::PathLocks::Lease lease) {
    pending->lease = std::move(lease);
    try {
      planAndAsk(pending, stampRule, plan);
    } catch (const std::exception& e) {
      pending->end(core::ToolDefect{e.what()});
    }
  });
}

} // namespace toold::builtins
