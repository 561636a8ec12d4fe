#include "builtins/files/file_transaction.h"

#include "core/files/atomic_file.h"
#include "core/workspace/held_location.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <memory>
#include <set>
#include <unistd.h>

namespace toold::builtins {

namespace {

namespace fs = std::filesystem;

// Up to this many files or folders are flushed one by one; past it, one syncfs per file system is
// far cheaper than thousands of fsyncs (each waits for a journal commit of the file system).
constexpr std::size_t kFlushEachUpTo = 8;

// The folders that must be created for the changes' targets, outermost first (a std::set of paths
// orders every parent before its children), for the journal. They are created later, one held
// step at a time, when each target's folder is held for writing.
std::vector<fs::path> missingFolders(const std::vector<FileChange>& changes) {
  std::set<fs::path> missing, present;
  for (const auto& change : changes) {
    if (!change.content) continue;
    for (fs::path current = change.target.parent_path(); !current.empty(); current = current.parent_path()) {
      if (present.contains(current) || missing.contains(current)) break;
      std::error_code ec;
      if (fs::exists(current, ec)) {
        present.insert(current);
        break;
      }
      missing.insert(current);
      if (current == current.parent_path()) break;
    }
  }
  return {missing.begin(), missing.end()};
}

// Flushing only makes durable what the held steps already did, so opening by path here cannot
// redirect a write; at worst a swapped path flushes some other folder.
void syncPath(const fs::path& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

// Flushes every file system the given paths (files or folders) are on: one syncfs each.
std::string syncFileSystems(const std::vector<fs::path>& paths) {
  std::map<dev_t, fs::path> byDevice;
  for (const auto& path : paths) {
    struct stat status {};
    if (::stat(path.c_str(), &status) == 0) byDevice.try_emplace(status.st_dev, path);
  }
  for (const auto& [device, path] : byDevice) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return "cannot open " + path.string() + " to flush it: " + std::strerror(errno);
    const bool synced = ::syncfs(fd) == 0;
    const int error = errno;
    ::close(fd);
    if (!synced) return "cannot flush the file system of " + path.string() + ": " + std::strerror(error);
  }
  return {};
}

// Every step holds the target's folder afresh (core/workspace/held_location.h) and acts through it, so a
// folder swapped for a symlink between the steps is refused, never followed. Holding afresh, not
// keeping one descriptor per file, keeps a patch of thousands of files within the descriptor limit.
using Held = std::variant<core::HeldLocation, std::string>;

Held holdForWriting(const core::WorkspaceRoot* root, const fs::path& target, std::vector<fs::path>& created) {
  return core::holdLocation(target, target.string(), core::HoldPurpose::Write, root, &created);
}

void removeCreated(const core::WorkspaceRoot* root, const std::vector<fs::path>& created) {
  for (auto it = created.rbegin(); it != created.rend(); ++it) {
    auto held = core::holdLocation(*it, it->string(), core::HoldPurpose::Read, root);
    if (auto* folder = std::get_if<core::HeldLocation>(&held); folder && folder->directory)
      ::unlinkat(folder->directory.get(), folder->leaf.c_str(), AT_REMOVEDIR);
  }
}

void discard(const core::WorkspaceRoot* root, const core::StagedWrite& write) {
  auto held = core::holdLocation(write.target, write.target.string(), core::HoldPurpose::Read, root);
  if (auto* folder = std::get_if<core::HeldLocation>(&held); folder && folder->directory)
    core::discardStagedWrite(folder->directory.get(), write);
}

/// Removes the file `target`; an empty string, else what failed. A file already gone is no error.
std::string removeFile(const core::WorkspaceRoot* root, const fs::path& target) {
  auto held = core::holdLocation(target, target.string(), core::HoldPurpose::Read, root);
  if (auto* error = std::get_if<std::string>(&held)) return *error;
  const auto& folder = std::get<core::HeldLocation>(held);
  if (!folder.directory) return {};
  if (::unlinkat(folder.directory.get(), folder.leaf.c_str(), 0) != 0 && errno != ENOENT)
    return "cannot remove " + target.string() + ": " + std::strerror(errno);
  return {};
}

} // namespace

CommitResult commitFileChanges(const std::vector<FileChange>& changes, const core::WorkspaceRoot* root,
                               core::ChangeJournal* journal) {
  CommitResult result;
  std::vector<fs::path> createdFolders;
  std::vector<core::StagedWrite> staged;
  std::vector<const FileChange*> stagedChanges;
  std::size_t stagedCount = 0;
  for (const auto& change : changes) stagedCount += change.content ? 1 : 0;
  const bool flushEach = stagedCount <= kFlushEachUpTo;

  // Too deep a target is refused before anything, journal included (finding its missing folders
  // by path would cost the square of its depth).
  for (const auto& change : changes)
    if (change.content)
      if (auto refusal = core::tooDeepToWrite(change.target, change.target.string())) {
        result.error = *refusal;
        return result;
      }

  // 0. The intent, in full, before anything exists: folders, staging names, what is removed.
  std::vector<core::JournalEntry> entries;
  for (const auto& change : changes) {
    core::JournalEntry entry{change.target, {}};
    if (change.content) {
      entry.staging = core::stagingPathFor(change.target);
    } else if (struct stat status {}; ::lstat(change.target.c_str(), &status) == 0) {
      entry.device = static_cast<std::uint64_t>(status.st_dev);
      entry.inode = static_cast<std::uint64_t>(status.st_ino);
    }
    entries.push_back(std::move(entry));
  }
  std::unique_ptr<core::ChangeJournal::Transaction> intent; // deleting it ends the journal
  if (journal) {
    auto begun = journal->begin(missingFolders(changes), entries, true);
    if (auto* error = std::get_if<std::string>(&begun)) {
      result.error = "cannot write the change journal: " + *error + "; nothing was changed";
      return result;
    }
    intent = std::move(std::get<std::unique_ptr<core::ChangeJournal::Transaction>>(begun));
  }

  auto abandon = [&](std::string error) {
    for (const auto& write : staged) discard(root, write);
    removeCreated(root, createdFolders);
    result.error = std::move(error) + "; nothing was changed";
    result.written.clear();
    return result;
  };

  // 1. Stage every new content in its target's folder. Nothing visible has changed yet.
  for (std::size_t i = 0; i < changes.size(); ++i) {
    const auto& change = changes[i];
    if (!change.content) continue;
    auto held = holdForWriting(root, change.target, createdFolders);
    if (auto* error = std::get_if<std::string>(&held)) return abandon(*error);
    auto write = core::stageFileWrite(std::get<core::HeldLocation>(held).directory.get(), change.target,
                                      *change.content, change.createMode,
                                      core::StagingOptions{entries[i].staging, flushEach});
    if (auto* error = std::get_if<std::string>(&write)) return abandon(*error);
    staged.push_back(std::get<core::StagedWrite>(write));
    stagedChanges.push_back(&change);
  }
  if (!flushEach) {
    std::vector<fs::path> stagedPaths;
    for (const auto& write : staged) stagedPaths.push_back(write.temporary);
    if (auto error = syncFileSystems(stagedPaths); !error.empty()) return abandon(std::move(error));
  }
  // Journal hook: from here on a kill is finished forward at the next start.
  if (intent)
    if (auto error = intent->advance(core::JournalState::Committing); !error.empty())
      return abandon("cannot write the change journal: " + error);

  // 2. Commit: renames first, then removals. Remember what to undo.
  std::vector<const FileChange*> committed;
  std::vector<std::string> unrestored;
  auto restore = [&](const FileChange& change) {
    std::string error;
    if (change.previous) {
      auto held = holdForWriting(root, change.target, createdFolders);
      if (auto* holdError = std::get_if<std::string>(&held)) error = *holdError;
      else
        error = core::writeFileAtomically(std::get<core::HeldLocation>(held).directory.get(), change.target,
                                          *change.previous, change.previousMode);
    } else {
      error = removeFile(root, change.target);
    }
    if (!error.empty()) unrestored.push_back(change.target.string());
  };
  auto rollback = [&](std::string error) {
    // Journal hook: a kill while restoring is neither forward nor back; the next start says so.
    if (intent) intent->advance(core::JournalState::RollingBack);
    for (auto it = committed.rbegin(); it != committed.rend(); ++it) restore(**it);
    removeCreated(root, createdFolders);
    result.written.clear();
    if (unrestored.empty()) {
      result.error = std::move(error) + "; every file was restored";
    } else {
      result.error = std::move(error) + "; these files could not be restored: ";
      for (std::size_t i = 0; i < unrestored.size(); ++i) result.error += (i ? ", " : "") + unrestored[i];
    }
    return result;
  };

  std::set<fs::path> directories;
  for (std::size_t i = 0; i < staged.size(); ++i) {
    auto held = holdForWriting(root, staged[i].target, createdFolders);
    std::string error;
    if (auto* holdError = std::get_if<std::string>(&held)) error = *holdError;
    else error = core::commitStagedWrite(std::get<core::HeldLocation>(held).directory.get(), staged[i], false);
    if (!error.empty()) {
      for (std::size_t k = i; k < staged.size(); ++k) discard(root, staged[k]);
      return rollback(std::move(error));
    }
    committed.push_back(stagedChanges[i]);
    result.written.push_back(staged[i].status);
    directories.insert(staged[i].target.parent_path());
  }
  for (const auto& change : changes) {
    if (change.content) continue;
    if (auto error = removeFile(root, change.target); !error.empty()) return rollback(std::move(error));
    committed.push_back(&change);
    directories.insert(change.target.parent_path());
  }
  // The renames and removals made durable: each directory once, not once per file.
  if (directories.size() <= kFlushEachUpTo) {
    for (const auto& directory : directories) syncPath(directory.empty() ? fs::path(".") : directory);
  } else {
    syncFileSystems({directories.begin(), directories.end()});
  }
  return result;
}

} // namespace toold::builtins
