#include "builtins/read.h"

#include "builtins/constant_json.h"
#include "builtins/lsp/change_diagnostics.h"

#include "builtins/files/file_sniff.h"
#include "builtins/files/read_page.h"
#include "builtins/text/base64.h"
#include "builtins/tool_support.h"
#include "core/output/output_budget.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <limits>
#include <memory>
#include <thread>
#include <sys/stat.h>
#include <unistd.h>

namespace toold::builtins {

namespace {

using core::json;

constexpr std::uint64_t kDefaultLimit = 2000;
constexpr std::size_t kMaxLineChars = 2000;
constexpr std::uintmax_t kMaxMediaBytes = 5u << 20;
constexpr std::size_t kPreviewLines = 20;
// The largest file read on the session's queue: one block of the line window's reads.
constexpr std::uintmax_t kQueueReadBytes = 1u << 20;

const char* kDescription = R"(Reads a file or directory from the workspace.

Usage:
- filePath is the absolute path (or a path relative to the workspace) of the file or directory.
- By default it returns up to 2000 lines from the start of the file, fewer when they would pass the output budget. Use offset (1-based line number) and limit to page through longer files; the first line and the footer say how to continue.
- Each line is shown as "<line number>: <text>". The number and the ": " are not part of the file: leave them out of edit strings.
- Lines longer than 2000 characters are cut; a page stops where the whole answer reaches toold's output budget.
- A directory is listed one entry per line, folders with a trailing "/".
- Images (PNG, JPEG, GIF, WebP, BMP) and PDFs up to 5 MB are returned as attachments. Other binary files are refused.
- Read a file before overwriting it with write; edits check that it has not changed since.)";

constexpr auto kInputSchema = compactJson(R"json(
{
  "additionalProperties": false,
  "properties": {
    "filePath": {
      "description": "The absolute path to the file or directory to read",
      "type": "string"
    },
    "limit": {
      "description": "The maximum number of lines to read (defaults to 2000)",
      "minimum": 1,
      "type": "integer"
    },
    "offset": {
      "description": "The line number to start reading from (1-based; 0 also means the first line)",
      "minimum": 0,
      "type": "integer"
    }
  },
  "required": ["filePath"],
  "type": "object"
})json");

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// Appended piece by piece: `a + b` chains made a new string per piece, several per line.
template <class Lines>
std::string joinPreview(const Lines& lines) {
  const std::size_t count = std::min<std::size_t>(lines.size(), kPreviewLines);
  std::size_t size = count;
  for (std::size_t i = 0; i < count; ++i) size += lines[i].size();
  std::string preview;
  preview.reserve(size); // room made once: grown a line at a time, it was reallocated five times
  for (std::size_t i = 0; i < lines.size() && i < kPreviewLines; ++i) {
    if (i > 0) preview += '\n';
    preview += lines[i];
  }
  return preview;
}

std::string directoryFooter(std::string_view shown, std::string_view total, std::string_view last, bool more) {
  if (!more) return "\n(" + std::string(total) + " entries)";
  return "\n(Showing " + std::string(shown) + " of " + std::string(total) +
         " entries. Use 'offset' parameter to read beyond entry " + std::string(last) + ")";
}

std::string directoryFirstLine(std::string_view shown, std::string_view total, std::string_view next) {
  return "(Showing " + std::string(shown) + " of " + std::string(total) + " entries. Continue with offset=" +
         std::string(next) + ".)";
}

void readDirectory(const core::ResolvedPath& path, const core::HeldLocation& held, std::uint64_t offset,
                   std::optional<std::uint64_t> limit, const core::BoundingLimits& budget, const core::ToolDone& done) {
  auto opened = core::openHeldDirectory(held);
  if (auto* error = std::get_if<std::string>(&opened)) return done(failure(*error));
  // fdopendir takes the descriptor over; closedir closes it.
  std::unique_ptr<DIR, int (*)(DIR*)> directory(::fdopendir(std::get<core::UniqueFd>(opened).get()), &::closedir);
  if (!directory) return done(failure("Cannot list " + path.given.string() + ": " + std::strerror(errno)));
  std::get<core::UniqueFd>(opened).release();
  std::vector<std::string> entries;
  int listError = 0;
  for (;;) {
    errno = 0;
    const dirent* entry = ::readdir(directory.get());
    if (entry == nullptr) {
      listError = errno; // 0 at the end of the folder
      break;
    }
    std::string name = entry->d_name;
    if (name == "." || name == "..") continue;
    // Follows symlinks, for the type only: a link to a folder is shown as a folder.
    struct stat status {};
    if (::fstatat(::dirfd(directory.get()), entry->d_name, &status, 0) == 0 && S_ISDIR(status.st_mode)) name += "/";
    entries.push_back(std::move(name));
  }
  std::error_code ec(listError, std::generic_category());
  if (ec) return done(failure("Cannot list " + path.given.string() + ": " + ec.message()));
  std::sort(entries.begin(), entries.end(), [](const std::string& a, const std::string& b) {
    auto la = lower(a), lb = lower(b);
    return la != lb ? la < lb : a < b;
  });
  const std::uint64_t total = entries.size();
  const std::uint64_t first = std::min<std::uint64_t>(offset - 1, total);
  const std::string header = "<path>" + path.given.string() + "</path>\n<type>directory</type>\n<entries>\n";
  // The page fits the budget whole: the frame counted at its widest, then entries while they fit
  // (the first one always, so that paging goes on).
  const std::string wide = core::widestNumber(core::decimalDigits(total + offset));
  const core::BoundingLimits room = core::roomLeft(
      budget, directoryFirstLine(wide, wide, wide) + "\n" + header + directoryFooter(wide, wide, wide, true) + "\n</entries>");
  const std::uint64_t end = std::min<std::uint64_t>(first + limit.value_or(kDefaultLimit), total);
  std::uint64_t last = first;
  for (std::size_t bytes = 0, lines = 0; last < end; ++last) {
    bytes += entries[last].size() + 1;
    lines += core::measureText(entries[last]).lines + (entries[last].empty() ? 1 : 0);
    if (last > first && (bytes > room.maxBytes || lines > room.maxLines)) break;
  }
  std::vector<std::string> page(entries.begin() + static_cast<std::ptrdiff_t>(first),
                                entries.begin() + static_cast<std::ptrdiff_t>(last));
  const bool truncated = last < total;
  const std::string shown = std::to_string(page.size()), count = std::to_string(total);
  std::string text;
  // Ended by toold's room or default limit, not the model's own: the first line says how to go on.
  if (truncated && (!limit || page.size() < *limit))
    text = directoryFirstLine(shown, count, std::to_string(last + 1)) + "\n";
  text += header;
  for (const auto& entry : page) text += entry + "\n";
  text += directoryFooter(shown, count, std::to_string(last), truncated);
  text += "\n</entries>";
  done(core::ToolResult{std::nullopt, json(text),
                        json{{"preview", joinPreview(page)}, {"truncated", truncated}}});
}

std::string readHead(int fd, std::string& error) {
  std::string head(4096, '\0');
  ssize_t n;
  do n = ::pread(fd, head.data(), head.size(), 0);
  while (n < 0 && errno == EINTR);
  if (n < 0) error = std::strerror(errno);
  head.resize(n < 0 ? 0 : static_cast<std::size_t>(n));
  return head;
}

void readMedia(const core::ResolvedPath& path, const core::HeldLocation& held, const FileSniff& sniff, std::uintmax_t size,
               const core::ToolDone& done) {
  if (size > kMaxMediaBytes)
    return done(failure("Cannot attach " + path.given.string() + ": it is " + std::to_string((size + (1u << 20) - 1) >> 20) +
                        " MiB, and images and PDFs are attached up to 5 MiB."));
  auto loaded = loadFile(held);
  if (auto* error = std::get_if<std::string>(&loaded)) return done(failure(*error));
  const auto& bytes = std::get<LoadedFile>(loaded).bytes;
  const std::string encoded = base64Encode(bytes);
  const std::string label = sniff.mime == "application/pdf" ? "PDF read successfully" : "Image read successfully";
  json content = json::array({json{{"type", "text"}, {"text", label}},
                              json{{"type", "file"},
                                   {"uri", "data:" + sniff.mime + ";base64," + encoded},
                                   {"mime", sniff.mime},
                                   {"name", path.canonical.filename().string()}}});
  done(core::ToolResult{std::nullopt, std::move(content), json{{"preview", label}, {"truncated", false}}});
}

/// `line` cut to at most `maxBytes` on a UTF-8 boundary, said so at its end: the one line of a
/// page whose budget cannot hold it whole.
std::string cutToRoom(std::string_view line, std::size_t maxBytes) {
  constexpr std::string_view kSuffix = "... (line cut to fit the output budget)";
  std::size_t end = maxBytes > kSuffix.size() ? maxBytes - kSuffix.size() : 0;
  end = std::min(end, line.size());
  while (end > 0 && end < line.size() && (static_cast<unsigned char>(line[end]) & 0xC0U) == 0x80U) --end;
  return std::string(line.substr(0, end)).append(kSuffix);
}

void readText(const std::shared_ptr<FileTools>& files, const core::ToolContext& context, const core::ResolvedPath& path,
              int folder, int fd, const struct stat& status, std::shared_ptr<const LineIndex> index, std::uint64_t offset,
              std::optional<std::uint64_t> limit, const core::ToolDone& done) {
  // The instructions of the folders entered, not yet shown to the session, follow the page.
  const InstructionReminder reminder =
      files->instructions.lookUp(context.sessionID, path.canonical, folder, context.location->directory, context.budget);
  const core::BoundingLimits budget = reminder.text.empty() ? context.budget : core::roomLeft(context.budget, reminder.text);
  // The page fits the call's budget whole, wrapper and footer included: a file has at most one
  // line more than it has bytes, which bounds every number the frame may hold.
  const std::uint64_t largestNumber = static_cast<std::uint64_t>(status.st_size) + 1;
  const PageRoom room = pageRoom(budget, path.given.native(), offset, limit.value_or(kDefaultLimit), largestNumber);
  LineWindowRequest request{offset, room.lines, kMaxLineChars, room.bytes, room.lineOverhead};
  auto read = readLineWindow(fd, path.canonical, request, files->lineIndex, context.cancellation, &status, index);
  if (auto* window = std::get_if<LineWindow>(&read); window && window->lines.empty() && window->cutByBytes) {
    // The first line alone is over the room: it is read whole (within its character cap) and cut.
    request.limit = 1;
    request.maxBytes = std::numeric_limits<std::size_t>::max() / 2;
    read = readLineWindow(fd, path.canonical, request, files->lineIndex, context.cancellation, &status, std::move(index));
    if (auto* whole = std::get_if<LineWindow>(&read)) whole->cutByBytes = true;
  }
  if (auto* error = std::get_if<LineWindowError>(&read)) {
    if (error->cancelled) return done(failure("The read was cancelled."));
    return done(failure("Cannot read " + path.given.string() + ": " + error->message));
  }
  auto& window = std::get<LineWindow>(read);
  if (offset > window.totalLines && !(window.totalLines == 0 && offset == 1))
    return done(failure("Offset " + std::to_string(offset) + " is out of range for this file (" +
                        std::to_string(window.totalLines) + " lines)"));
  files->stamps.record(context.sessionID, path.canonical,
                       ReadStamp{window.identity, window.contentHash, std::chrono::system_clock::now()});

  PageEnd end{offset, window.lines.size(), window.totalLines, window.cutByBytes, false, context.budget.maxBytes};
  // The model's own limit ending the page is no cut of toold's; toold's room or default limit is.
  end.cutByToold = window.more && (window.cutByBytes || !limit || window.lines.size() < *limit);
  const std::string first = pageFirstLine(end);
  const std::size_t size = 192 + path.given.native().size() + window.lines.bytes() + 24 * window.lines.size();
  std::string text;
  text.reserve(size);
  if (!first.empty()) text.append(first).append("\n");
  text += pageHeader(path.given.native());
  char number[24];
  for (std::size_t i = 0; i < window.lines.size(); ++i) {
    if (i > 0) text += '\n';
    text.append(number, std::to_chars(number, number + sizeof number, offset + i).ptr);
    text.append(": ", 2);
    const std::size_t lineStart = text.size();
    text += window.lines[i];
    // Only a lone line read past the room (above) can be over it.
    if (window.lines.size() == 1 && window.cutByBytes && window.lines[i].size() + room.lineOverhead > room.bytes) {
      text.resize(lineStart);
      text += cutToRoom(window.lines[i], room.bytes > room.lineOverhead ? room.bytes - room.lineOverhead : 0);
    }
  }
  text.append("\n\n").append(pageFooter(end)).append(kPageClose);
  text += reminder.text;
  json metadata(json::value_t::object);
  metadata["preview"] = joinPreview(window.lines);
  metadata["truncated"] = window.more;
  if (!reminder.loaded.empty()) metadata["loaded"] = reminder.loaded;
  files->instructions.shown(context.sessionID, reminder);
  done(core::ToolResult{std::nullopt, json(std::move(text)), std::move(metadata)});
  // A file read is usually a file about to be edited: its language servers open it now, so the
  // edit's diagnostics come from a warm server, and the edit can tell new errors from old ones.
  if (files->lsp && static_cast<std::size_t>(status.st_size) <= kMaxLspDocumentBytes && files->lsp->serves(path.canonical)) {
    std::string whole(static_cast<std::size_t>(status.st_size), '\0');
    std::size_t got = 0;
    while (got < whole.size()) {
      const ssize_t n = ::pread(fd, whole.data() + got, whole.size() - got, static_cast<off_t>(got));
      if (n <= 0) break;
      got += static_cast<std::size_t>(n);
    }
    if (got == whole.size()) files->lsp->touch(path.canonical, std::move(whole), core::LspService::Touch::Read, nullptr);
  }
}

// Runs `work`, an exception ending the call as a defect: outside `execute` (on a worker, or after
// a permission the person answered) nothing else catches it.
void guarded(const core::ToolDone& done, const std::function<void()>& work) {
  try {
    work();
  } catch (const std::exception& e) {
    done(core::ToolDefect{e.what()});
  }
}

// Runs `work` on the worker pool, where a read that may take long belongs.
void onWorkers(const core::ToolContext& context, const core::ToolDone& done, std::function<void()> work) {
  if (!context.offload) return guarded(done, work);
  context.offload([work = std::move(work), done] { guarded(done, work); });
}

/// `onQueue`: the call is on the session's queue, where only a small text file is read; anything
/// larger (or a folder, or media) starts over on a worker. `early`: the location as resolving held
/// it, when nothing waited since (see holdResolvedFolder).
void readResolved(const std::shared_ptr<FileTools>& files, const core::ToolContext& context,
                  const core::ResolvedPath& path, std::optional<core::HeldLocation> early, std::uint64_t offset,
                  std::optional<std::uint64_t> limit, const core::ToolDone& done, bool onQueue) {
  auto handOver = [&] {
    onWorkers(context, done, [=] { readResolved(files, context, path, std::nullopt, offset, limit, done, false); });
  };
  // Everything below acts on what was checked, held: never on the path's text again.
  auto held = early ? std::variant<core::HeldLocation, std::string>(std::move(*early))
                    : core::holdLocation(path, core::HoldPurpose::Read);
  if (auto* error = std::get_if<std::string>(&held)) return done(failure(*error));
  const auto& location = std::get<core::HeldLocation>(held);
  if (!location.exists()) {
    if (onQueue) return handOver(); // the suggestions list the folder
    std::string message = "File not found: " + path.given.string();
    auto similar = similarNames(path.canonical.parent_path(), path.canonical.filename().string());
    if (!similar.empty()) {
      message += "\n\nDid you mean one of these?";
      for (const auto& candidate : similar) message += "\n" + candidate.string();
    }
    return done(failure(message));
  }
  if (location.isDirectory())
    return onQueue ? handOver() : readDirectory(path, location, offset, limit, context.budget, done);
  struct stat status {};
  // A small file read on the queue lately is still open, when the look at its path just taken
  // names the same inode, unchanged since: the hold's lstat then stands for the open file's fstat.
  OpenFileCache::SharedFd file = onQueue ? files->openFiles.find(path.canonical.native(), *location.status) : nullptr;
  const bool kept = file != nullptr;
  if (kept) {
    status = *location.status;
  } else {
    // A file on the workspace's own (local disk) file system needs no look at its file system.
    core::FileSystemMemo workspaceDisk;
    if (auto device = files->localDisk.localDevice(context.location->directory))
      workspaceDisk = core::FileSystemMemo{true, *device, std::nullopt};
    auto opened = core::openHeldFile(location, &status, &workspaceDisk);
    if (auto* error = std::get_if<std::string>(&opened)) return done(failure(*error));
    file = std::make_shared<const core::UniqueFd>(std::move(std::get<core::UniqueFd>(opened)));
  }
  if (onQueue && static_cast<std::uintmax_t>(status.st_size) > kQueueReadBytes) return handOver();
  const int fd = file->get();
  // This version of the file was read before, as text (only text is indexed): no second look.
  auto index = files->lineIndex.find(path.canonical, fileIdentity(status));
  if (!index) {
    std::string error;
    const std::string head = readHead(fd, error);
    if (!error.empty()) return done(failure("Cannot read " + path.given.string() + ": " + error));
    const auto size = static_cast<std::uintmax_t>(status.st_size);
    auto sniff = sniffFile(path.canonical, head, size);
    if (sniff.kind == FileClass::Media) return onQueue ? handOver() : readMedia(path, location, sniff, size, done);
    if (sniff.kind == FileClass::Binary) return done(failure("Cannot read binary file: " + path.given.string()));
  }
  // Kept only once it is known to be text: media and binary files are not read page by page.
  if (onQueue && !kept) files->openFiles.keep(path.canonical.native(), file, status);
  readText(files, context, path, location.directory.get(), fd, status, std::move(index), offset, limit, done);
}

/// What the verdict's continuation shares with startRead, in one allocation: whether the verdict
/// is still awaited inside the ask (then the folder resolving held may be used), that folder, and
/// the resolved path (a path object's copy allocates its elements anew).
struct PendingRead {
  std::atomic<bool> asking{true};
  std::optional<core::HeldLocation> early;
  core::ResolvedPath target;
};

/// Resolves the path, asks for permission, reads. `onQueue`: see readResolved.
void startRead(const std::shared_ptr<FileTools>& files, const core::ToolContext& context, const std::string& path,
               std::uint64_t offset, std::optional<std::uint64_t> limit, core::ToolDone done, bool onQueue) {
  core::ResolvedPath resolved;
  core::ResolvedFolder folder;
  try {
    // On the queue, resolving opens the folder it checks, for the read to use if it goes on at once.
    resolved = onQueue ? core::resolveToolPath(path, *context.location, folder) : core::resolveToolPath(path, *context.location);
  } catch (const core::PathError& e) {
    return done(failure(e.what()));
  }
  std::vector<core::PermissionAsk> asks;
  const auto kind = resolved.isDirectory ? core::PathKind::Directory : core::PathKind::File;
  if (auto external = core::externalDirectoryAsk(resolved, kind)) asks.push_back(std::move(*external));
  std::string resource = core::workspaceRelative(resolved, *context.location);
  // Not an initializer list, which builds the member as a two-element array first.
  json metadata(json::value_t::object);
  metadata["filepath"] = resolved.given.string();
  // "Always" saves this file alone: reading a secret once should not open every file.
  asks.push_back(core::PermissionAsk{"read", {resource}, {std::move(resource)}, std::move(metadata)});
  // A path that leads out of the workspace (through a link) may lead to another file system.
  onQueue = onQueue && resolved.inside;
  // The verdict may come on any thread (the client's answer to an ask arrives on the reader's).
  // Given at once, on this thread, it may use the folder resolving held; given later, whatever
  // happened meanwhile, the location is held afresh, as every other tool does after a wait.
  auto pending = std::make_shared<PendingRead>();
  pending->early = core::holdResolvedFolder(resolved, std::move(folder));
  pending->target = std::move(resolved);
  const auto caller = std::this_thread::get_id();
  assertEach(context, std::move(asks), [=, done = std::move(done)](std::optional<core::ToolCompletion> refusal) {
    if (refusal) return done(std::move(*refusal));
    std::optional<core::HeldLocation> held;
    if (pending->asking.load() && std::this_thread::get_id() == caller) held = std::move(pending->early);
    if (onQueue)
      return guarded(done, [&] { readResolved(files, context, pending->target, std::move(held), offset, limit, done, true); });
    onWorkers(context, done, [=] { readResolved(files, context, pending->target, std::nullopt, offset, limit, done, false); });
  });
  pending->asking.store(false);
  pending->early.reset(); // a verdict still to come holds afresh: the folder is closed now
}

/// Whether `path` has a ".." element.
bool hasDotDotElement(std::string_view path) {
  for (std::size_t at = path.find(".."); at != std::string_view::npos; at = path.find("..", at + 1)) {
    const bool starts = at == 0 || path[at - 1] == '/';
    const bool ends = at + 2 == path.size() || path[at + 2] == '/';
    if (starts && ends) return true;
  }
  return false;
}

/// Whether the read may start on the session's queue: a path written inside the workspace, which
/// is on a local disk. Anything else is resolved and read on a worker from the start.
bool mayReadOnQueue(FileTools& files, const core::ToolContext& context, const std::string& path) {
  if (!context.offload || path.empty() || path.front() == '~') return false;
  const core::Location& location = *context.location;
  bool inside = false;
  if (!hasDotDotElement(path)) {
    // Without "..", a relative path stays in the workspace, and an absolute one is compared as it
    // is: no path objects to build, no normalising (a "." element can only make it look outside,
    // which costs a worker, never a wrong answer).
    inside = path.front() != '/' || core::pathTextContains(location.directory.native(), path);
  } else {
    const std::filesystem::path given = path.front() == '/' ? std::filesystem::path(path) : location.directory / path;
    inside = core::pathContains(location.directory, given.lexically_normal());
  }
  return inside && files.localDisk.onLocalDisk(location.directory);
}

} // namespace

core::Tool makeReadTool(std::shared_ptr<FileTools> files) {
  auto execute = [files](json input, core::ToolContext context, core::ToolDone done) {
    const json& filePath = input["filePath"];
    if (!filePath.is_string()) (void)filePath.get<std::string>(); // refused as nlohmann refuses it (the schema makes it a string)
    const std::string& path = filePath.get_ref<const std::string&>(); // `input` outlives the queue's read; workers copy it
    // 0 is read as the first line, as opencode does now: models that count from 0 send it.
    const std::uint64_t offset = std::max<std::uint64_t>(input.value("offset", std::uint64_t{1}), 1);
    // Unset: the default limit, a cut of toold's that the page says so of (readText).
    std::optional<std::uint64_t> limit;
    if (auto given = input.find("limit"); given != input.end()) limit = given->get<std::uint64_t>();
    if (mayReadOnQueue(*files, context, path)) return startRead(files, context, path, offset, limit, std::move(done), true);
    onWorkers(context, done, [=] { startRead(files, context, path, offset, limit, done, false); });
  };
  auto tool = workerTool(kDescription, kInputSchema.view(), "read", false, std::move(execute));
  tool.threading = core::ToolThreading::Inline; // it hands itself to the workers when it must
  return tool;
}

} // namespace toold::builtins
