#include "builtins/files/file_transaction.h"

#include "core/atomic_file.h"

#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace toold::builtins {

namespace {

namespace fs = std::filesystem;

// Creates the missing ancestors of `directory`, recording each one created, outermost first.
std::string createParents(const fs::path& directory, std::vector<fs::path>& created) {
  std::vector<fs::path> missing;
  for (fs::path current = directory; !current.empty(); current = current.parent_path()) {
    std::error_code ec;
    if (fs::exists(current, ec)) break;
    missing.push_back(current);
    if (current == current.parent_path()) break;
  }
  for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
    if (::mkdir(it->c_str(), 0755) != 0 && errno != EEXIST)
      return "cannot create the folder " + it->string() + ": " + std::strerror(errno);
    created.push_back(*it);
  }
  return {};
}

void removeCreated(const std::vector<fs::path>& created) {
  for (auto it = created.rbegin(); it != created.rend(); ++it) ::rmdir(it->c_str());
}

} // namespace

CommitResult commitFileChanges(const std::vector<FileChange>& changes) {
  CommitResult result;
  std::vector<fs::path> createdFolders;
  std::vector<core::StagedWrite> staged;
  std::vector<const FileChange*> stagedChanges;

  auto abandon = [&](std::string error) {
    for (const auto& write : staged) core::discardStagedWrite(write);
    removeCreated(createdFolders);
    result.error = std::move(error) + "; nothing was changed";
    result.written.clear();
    return result;
  };

  // 1. Stage every new content. Nothing visible has changed yet.
  for (const auto& change : changes) {
    if (!change.content) continue;
    if (auto error = createParents(change.target.parent_path(), createdFolders); !error.empty())
      return abandon(std::move(error));
    auto write = core::stageFileWrite(change.target, *change.content, change.createMode);
    if (auto* error = std::get_if<std::string>(&write)) return abandon(*error);
    staged.push_back(std::get<core::StagedWrite>(write));
    stagedChanges.push_back(&change);
  }

  // 2. Commit: renames first, then removals. Remember what to undo.
  std::vector<const FileChange*> committed;
  std::vector<std::string> unrestored;
  auto restore = [&](const FileChange& change) {
    std::string error;
    if (change.previous) error = core::writeFileAtomically(change.target, *change.previous, change.previousMode);
    else if (::unlink(change.target.c_str()) != 0 && errno != ENOENT) error = std::strerror(errno);
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
    if (auto error = core::commitStagedWrite(staged[i]); !error.empty()) {
      for (std::size_t k = i + 1; k < staged.size(); ++k) core::discardStagedWrite(staged[k]);
      return rollback(std::move(error));
    }
    committed.push_back(stagedChanges[i]);
    result.written.push_back(staged[i].status);
  }
  for (const auto& change : changes) {
    if (change.content) continue;
    if (::unlink(change.target.c_str()) != 0 && errno != ENOENT)
      return rollback("cannot remove " + change.target.string() + ": " + std::strerror(errno));
    committed.push_back(&change);
  }
  return result;
}

} // namespace toold::builtins
