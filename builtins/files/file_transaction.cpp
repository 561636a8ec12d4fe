#include "builtins/files/file_transaction.h"

#include "core/atomic_file.h"
#include "core/held_location.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace toold::builtins {

namespace {

namespace fs = std::filesystem;

// Every step holds the target's folder afresh (core/held_location.h) and acts through it, so a
// folder swapped for a symlink between the steps is refused, never followed. Holding afresh, not
// keeping one descriptor per file, keeps a patch of thousands of files within the descriptor limit.
using Held = std::variant<core::HeldLocation, std::string>;

Held holdForWriting(const fs::path& target, std::vector<fs::path>& created) {
  return core::holdLocation(target, target.string(), core::HoldPurpose::Write, &created);
}

void removeCreated(const std::vector<fs::path>& created) {
  for (auto it = created.rbegin(); it != created.rend(); ++it) {
    auto held = core::holdLocation(*it, it->string(), core::HoldPurpose::Read);
    if (auto* folder = std::get_if<core::HeldLocation>(&held); folder && folder->directory)
      ::unlinkat(folder->directory.get(), folder->leaf.c_str(), AT_REMOVEDIR);
  }
}

void discard(const core::StagedWrite& write) {
  auto held = core::holdLocation(write.target, write.target.string(), core::HoldPurpose::Read);
  if (auto* folder = std::get_if<core::HeldLocation>(&held); folder && folder->directory)
    core::discardStagedWrite(folder->directory.get(), write);
}

/// Removes the file `target`; an empty string, else what failed. A file already gone is no error.
std::string removeFile(const fs::path& target) {
  auto held = core::holdLocation(target, target.string(), core::HoldPurpose::Read);
  if (auto* error = std::get_if<std::string>(&held)) return *error;
  const auto& folder = std::get<core::HeldLocation>(held);
  if (!folder.directory) return {};
  if (::unlinkat(folder.directory.get(), folder.leaf.c_str(), 0) != 0 && errno != ENOENT)
    return "cannot remove " + target.string() + ": " + std::strerror(errno);
  return {};
}

} // namespace

CommitResult commitFileChanges(const std::vector<FileChange>& changes) {
  CommitResult result;
  std::vector<fs::path> createdFolders;
  std::vector<core::StagedWrite> staged;
  std::vector<const FileChange*> stagedChanges;

  auto abandon = [&](std::string error) {
    for (const auto& write : staged) discard(write);
    removeCreated(createdFolders);
    result.error = std::move(error) + "; nothing was changed";
    result.written.clear();
    return result;
  };

  // 1. Stage every new content in its target's folder. Nothing visible has changed yet.
  for (const auto& change : changes) {
    if (!change.content) continue;
    auto held = holdForWriting(change.target, createdFolders);
    if (auto* error = std::get_if<std::string>(&held)) return abandon(*error);
    auto write = core::stageFileWrite(std::get<core::HeldLocation>(held).directory.get(), change.target,
                                      *change.content, change.createMode);
    if (auto* error = std::get_if<std::string>(&write)) return abandon(*error);
    staged.push_back(std::get<core::StagedWrite>(write));
    stagedChanges.push_back(&change);
  }

  // 2. Commit: renames first, then removals. Remember what to undo.
  std::vector<const FileChange*> committed;
  std::vector<std::string> unrestored;
  auto restore = [&](const FileChange& change) {
    std::string error;
    if (change.previous) {
      auto held = holdForWriting(change.target, createdFolders);
      if (auto* holdError = std::get_if<std::string>(&held)) error = *holdError;
      else
        error = core::writeFileAtomically(std::get<core::HeldLocation>(held).directory.get(), change.target,
                                          *change.previous, change.previousMode);
    } else {
      error = removeFile(change.target);
    }
    if (!error.empty()) unrestored.push_back(change.target.string());
  };
  auto rollback = [&](std::string error) {
    for (auto it = committed.rbegin(); it != committed.rend(); ++it) restore(**it);
    removeCreated(createdFolders);
    result.written.clear();
    if (unrestored.empty()) {
      result.error = std::move(error) + "; every file was restored";
    } else {
      result.error = std::move(error) + "; these files could not be restored: ";
      for (std::size_t i = 0; i < unrestored.size(); ++i) result.error += (i ? ", " : "") + unrestored[i];
    }
    return result;
  };

  for (std::size_t i = 0; i < staged.size(); ++i) {
    auto held = holdForWriting(staged[i].target, createdFolders);
    std::string error;
    if (auto* holdError = std::get_if<std::string>(&held)) error = *holdError;
    else error = core::commitStagedWrite(std::get<core::HeldLocation>(held).directory.get(), staged[i]);
    if (!error.empty()) {
      for (std::size_t k = i; k < staged.size(); ++k) discard(staged[k]);
      return rollback(std::move(error));
    }
    committed.push_back(stagedChanges[i]);
    result.written.push_back(staged[i].status);
  }
  for (const auto& change : changes) {
    if (change.content) continue;
    if (auto error = removeFile(change.target); !error.empty()) return rollback(std::move(error));
    committed.push_back(&change);
  }
  return result;
}

} // namespace toold::builtins
