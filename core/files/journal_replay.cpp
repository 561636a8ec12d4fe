#include "core/files/journal_replay.h"

#include "core/files/change_journal.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <set>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace toold::core {

namespace {

// The first names of a list, then how many more: a journal may name thousands of files, and the
// note is one log line.
std::string someNames(const std::vector<std::string>& names) {
  constexpr std::size_t kShown = 20;
  std::string text;
  for (std::size_t i = 0; i < names.size() && i < kShown; ++i) text += (i ? ", " : "") + names[i];
  if (names.size() > kShown) text += " and " + std::to_string(names.size() - kShown) + " more";
  return text;
}

namespace fs = std::filesystem;

// Staging files are named after their target and sit beside it; a journal naming anything else was
// not written by toold, and its entry is skipped.
bool stagingBelongsTo(const fs::path& staging, const fs::path& target) {
  const std::string prefix = "." + target.filename().string() + ".toold-";
  return staging.parent_path() == target.parent_path() && staging.filename().string().starts_with(prefix) &&
         staging.filename().string().size() > prefix.size();
}

void syncDirectory(const fs::path& directory) {
  int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

void removeStagingFiles(const JournalRecord& record) {
  for (const auto& entry : record.entries)
    if (!entry.staging.empty() && stagingBelongsTo(entry.staging, entry.target)) ::unlink(entry.staging.c_str());
}

std::string rollBack(const JournalRecord& record) {
  removeStagingFiles(record);
  // Innermost first; a folder something else has since been put in stays.
  for (auto it = record.folders.rbegin(); it != record.folders.rend(); ++it) ::rmdir(it->c_str());
  return "rolled back (nothing had been committed; " + std::to_string(record.entries.size()) + " file(s))";
}

std::string rollForward(const JournalRecord& record) {
  std::size_t renamed = 0, removed = 0;
  std::vector<std::string> failures;
  std::set<fs::path> directories;
  for (const auto& entry : record.entries) {
    if (entry.staging.empty()) continue;
    if (!stagingBelongsTo(entry.staging, entry.target)) {
      failures.push_back(entry.staging.string() + " (not a staging file of " + entry.target.string() + ")");
      continue;
    }
    struct stat status {};
    if (::lstat(entry.staging.c_str(), &status) != 0) continue; // committed before the kill
    if (::rename(entry.staging.c_str(), entry.target.c_str()) != 0) {
      failures.push_back(entry.target.string() + " (" + std::strerror(errno) + ")");
      continue;
    }
    ++renamed;
    directories.insert(entry.target.parent_path());
  }
  for (const auto& entry : record.entries) {
    if (!entry.staging.empty()) continue;
    struct stat status {};
    if (::lstat(entry.target.c_str(), &status) != 0) continue; // removed before the kill
    if (static_cast<std::uint64_t>(status.st_dev) != entry.device ||
        static_cast<std::uint64_t>(status.st_ino) != entry.inode) {
      failures.push_back(entry.target.string() + " (not the file the change was to remove; kept)");
      continue;
    }
    if (::unlink(entry.target.c_str()) != 0) {
      failures.push_back(entry.target.string() + " (" + std::strerror(errno) + ")");
      continue;
    }
    ++removed;
    directories.insert(entry.target.parent_path());
  }
  for (const auto& directory : directories) syncDirectory(directory);
  std::string note = "rolled forward (" + std::to_string(renamed) + " file(s) replaced and " +
                     std::to_string(removed) + " removed that the killed toold had not reached)";
  if (!failures.empty()) note += "; not finished: " + someNames(failures);
  return note;
}

std::string interrupted(const JournalRecord& record) {
  removeStagingFiles(record);
  std::string note = "was undoing a failed commit when it was killed; these files may hold the new content: ";
  std::vector<std::string> targets;
  for (const auto& entry : record.entries) targets.push_back(entry.target.string());
  return note + someNames(targets);
}

std::string readAll(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

} // namespace

ReplayReport replayJournals(const fs::path& directory) {
  ReplayReport report;
  std::error_code ec;
  if (!fs::is_directory(directory, ec)) return report;
  // Two toolds starting at once would otherwise replay the same journal side by side.
  const auto lockPath = directory / ".replay.lock";
  int lock = ::open(lockPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (lock >= 0) ::flock(lock, LOCK_EX);
  std::vector<fs::path> files;
  for (const auto& item : fs::directory_iterator(directory, ec)) {
    const auto name = item.path().filename().string();
    if (name.ends_with(".journal") || name.ends_with(".journal.next")) files.push_back(item.path());
  }
  std::sort(files.begin(), files.end());
  bool unlinked = false;
  for (const auto& file : files) {
    const auto record = decodeJournal(readAll(file));
    if (!record) {
      report.notes.push_back(file.string() + ": not a journal toold can read; left alone");
      ++report.leftAlone;
      continue;
    }
    if (ownerStatus(record->owner) != OwnerStatus::Gone) {
      ++report.leftAlone;
      continue;
    }
    if (file.extension() == ".next") { // a rewrite cut short; the journal beside it holds the state
      ::unlink(file.c_str());
      unlinked = true;
      continue;
    }
    std::string what;
    if (!record->complete || record->state == JournalState::Staging) {
      what = rollBack(*record);
      ++report.rolledBack;
    } else if (record->state == JournalState::Committing) {
      what = rollForward(*record);
      ++report.rolledForward;
    } else {
      what = interrupted(*record);
      ++report.interrupted;
    }
    ::unlink(file.c_str());
    unlinked = true;
    report.notes.push_back("change of toold " + std::to_string(record->owner.pid) + " (" + file.filename().string() +
                           ") " + what);
  }
  // The removals made durable; a start with nothing to replay (nearly every start) syncs nothing.
  if (unlinked) syncDirectory(directory);
  if (lock >= 0) ::close(lock);
  return report;
}

} // namespace toold::core
