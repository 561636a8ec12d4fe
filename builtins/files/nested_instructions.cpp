#include "builtins/files/nested_instructions.h"

#include "builtins/text/text_encoding.h"
#include "core/base/unique_fd.h"
#include "core/output/output_budget.h"
#include "core/workspace/held_location.h"
#include "core/workspace/workspace_paths.h"

#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace toold::builtins {

namespace {

constexpr const char* kNames[] = {"AGENTS.md", "CLAUDE.md"};
constexpr std::string_view kOpen = "\n\n<system-reminder>\n";
constexpr std::string_view kClose = "\n</system-reminder>";

// Up to `limit` bytes of the regular file `name` in `folder`, never through a symlink; nullopt
// when there is no such file (or it cannot be read: a reminder is a courtesy, never an error).
std::optional<std::string> readInstructionFile(int folder, const char* name, std::size_t limit, bool& whole) {
  auto opened = core::openReadableFileAt(folder, name, false);
  if (!std::holds_alternative<core::UniqueFd>(opened)) return std::nullopt;
  const int fd = std::get<core::UniqueFd>(opened).get();
  std::string text(limit + 1, '\0');
  std::size_t have = 0;
  while (have < text.size()) {
    const ssize_t n = ::read(fd, text.data() + have, text.size() - have);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return std::nullopt;
    if (n == 0) break;
    have += static_cast<std::size_t>(n);
  }
  whole = have <= limit;
  text.resize(std::min(have, limit));
  return text;
}

// `text` cut to at most `bytes` bytes and `lines` lines, at the end of a line when one ends in
// reach (else on a UTF-8 boundary).
std::string cutText(std::string_view text, std::size_t bytes, std::size_t lines) {
  std::size_t end = std::min(bytes, text.size());
  std::size_t newlines = 0;
  for (std::size_t i = 0; i < end; ++i)
    if (text[i] == '\n' && ++newlines >= lines) {
      end = i;
      break;
    }
  if (end < text.size()) {
    const std::size_t lineEnd = text.rfind('\n', end == 0 ? 0 : end - 1);
    if (lineEnd != std::string_view::npos && lineEnd > 0 && end > 0) end = lineEnd;
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0U) == 0x80U) --end;
  }
  return std::string(text.substr(0, end));
}

std::string entry(std::string_view path, std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.remove_suffix(1);
  return "Instructions from: " + std::string(path) + "\n" + std::string(text);
}

} // namespace

std::string reminderText(const std::vector<std::pair<std::string, std::string>>& files,
                         const core::BoundingLimits& budget, std::size_t& shownCount) {
  shownCount = 0;
  if (files.empty()) return {};
  const core::BoundingLimits room{budget.maxLines / 4, budget.maxBytes / 4};
  std::string body;
  for (const auto& [path, text] : files) {
    const std::string separator = body.empty() ? "" : "\n\n";
    std::string whole = entry(path, text);
    const core::BoundingLimits left =
        core::roomLeft(room, std::string(kOpen) + body + separator + std::string(kClose));
    if (core::measureText(whole).bytes <= left.maxBytes && core::measureText(whole).lines <= left.maxLines) {
      body += separator + whole;
      ++shownCount;
      continue;
    }
    // Cut to what is left, saying where the rest is; a file that cannot show a line is left out
    // (and not remembered: a later read with more room shows it).
    const std::string note = "\n(Cut to fit the answer; read " + path + " for the rest.)";
    const core::BoundingLimits forText = core::roomLeft(left, entry(path, "") + note);
    if (forText.maxBytes < 80 || forText.maxLines < 2) break;
    body += separator + entry(path, cutText(text, forText.maxBytes, forText.maxLines)) + note;
    ++shownCount;
    break;
  }
  if (shownCount == 0) return {};
  return std::string(kOpen) + body + std::string(kClose);
}

bool NestedInstructions::seen(const std::string& sessionID, const std::filesystem::path& folder) const {
  const auto session = seen_.find(sessionID);
  return session != seen_.end() && session->second.count(folder) > 0;
}

InstructionReminder NestedInstructions::lookUp(const std::string& sessionID, const std::filesystem::path& canonical,
                                               int folder, const std::filesystem::path& root,
                                               const core::BoundingLimits& budget) const {
  InstructionReminder reminder;
  // The folders from the file's up to the root, the root left out: the host shows the root's.
  // Found in the path's text (path objects split into components at every step made a deep path
  // quadratic); a file deeper than kMaxDepth folders gets no reminder.
  const std::string& filePath = canonical.native();
  const std::string& rootPath = root.native();
  if (filePath.size() <= rootPath.size() + 1 || filePath.compare(0, rootPath.size(), rootPath) != 0 ||
      (rootPath != "/" && filePath[rootPath.size()] != '/'))
    return reminder;
  std::vector<std::filesystem::path> chain;
  for (std::size_t slash = filePath.rfind('/'); slash != std::string::npos && slash > rootPath.size();
       slash = filePath.rfind('/', slash - 1)) {
    if (chain.size() == kMaxDepth) return reminder;
    chain.emplace_back(filePath.substr(0, slash));
  }
  if (chain.empty()) return reminder;
  {
    std::lock_guard lock(mutex_);
    bool all = true;
    for (const auto& at : chain) all = all && seen(sessionID, at);
    if (all) return reminder; // the common case once a session has worked in a folder: no system call
  }
  std::vector<std::pair<std::string, std::string>> files;
  // Each folder looked at, with the index in `files` of its instruction file; kNone when it has
  // none to show (no file, or the file is the one being read): the session has seen it all then.
  constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::vector<std::pair<std::filesystem::path, std::size_t>> looked;
  core::UniqueFd parent;
  int current = folder;
  for (std::size_t i = 0; i < chain.size(); ++i) {
    if (i > 0) {
      // "..", never the path's text: what is reached is the parent of the folder the read held.
      core::UniqueFd up(::openat(current, "..", O_PATH | O_DIRECTORY | O_CLOEXEC));
      if (!up) return InstructionReminder{};
      parent = std::move(up);
      current = parent.get();
    }
    bool known = false;
    {
      std::lock_guard lock(mutex_);
      known = seen(sessionID, chain[i]);
    }
    if (known) continue;
    looked.emplace_back(chain[i], kNone);
    for (const char* name : kNames) {
      bool whole = true;
      auto text = readInstructionFile(current, name, kMaxFileBytes, whole);
      if (!text) continue;
      // Empty, or not UTF-8 text: nothing a model can read. The file being read: shown already.
      if (text->empty() || firstInvalidUtf8(*text) != std::string::npos || chain[i] / name == canonical) break;
      const std::string path = (chain[i] / name).string();
      if (!whole) {
        *text = cutText(*text, kMaxFileBytes, kMaxFileBytes);
        *text += "\n(The first " + std::to_string(kMaxFileBytes / 1024) + " KiB; read " + path + " for the rest.)";
      }
      looked.back().second = files.size();
      files.emplace_back(path, std::move(*text));
      break;
    }
  }
  // The walk must have ended at the root itself: a folder moved meanwhile would have led elsewhere.
  core::UniqueFd top(::openat(current, "..", O_PATH | O_DIRECTORY | O_CLOEXEC));
  struct stat reached {}, expected {};
  if (!top || ::fstat(top.get(), &reached) != 0 || ::stat(root.c_str(), &expected) != 0 ||
      reached.st_dev != expected.st_dev || reached.st_ino != expected.st_ino)
    return InstructionReminder{};

  std::size_t shownCount = 0;
  reminder.text = reminderText(files, budget, shownCount);
  for (std::size_t i = 0; i < shownCount; ++i) reminder.loaded.push_back(files[i].first);
  // A file left out for want of room is not remembered: a later read with more room shows it.
  for (const auto& [at, file] : looked)
    if (file == kNone || file < shownCount) reminder.folders.push_back(at);
  return reminder;
}

void NestedInstructions::shown(const std::string& sessionID, const InstructionReminder& reminder) {
  if (reminder.folders.empty()) return;
  std::lock_guard lock(mutex_);
  auto& folders = seen_[sessionID];
  if (folders.size() + reminder.folders.size() > kMaxFoldersPerSession) folders.clear();
  folders.insert(reminder.folders.begin(), reminder.folders.end());
}

} // namespace toold::builtins
