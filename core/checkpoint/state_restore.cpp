#include "core/checkpoint/state_restore.h"

#include "core/checkpoint/relative_folder.h"
#include "core/files/atomic_file.h"
#include "core/files/change_journal.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>

namespace toold::core {

namespace {

namespace fs = std::filesystem;

bool isFolder(const std::optional<FileRecord>& record) { return record && record->kind == EntryKind::Folder; }
bool isLeaf(const std::optional<FileRecord>& record) { return record && record->kind != EntryKind::Folder; }

std::size_t depth(const std::string& path) { return static_cast<std::size_t>(std::count(path.begin(), path.end(), '/')); }

std::string systemError(const std::string& what, const std::string& path, int error = errno) {
  return what + " " + path + ": " + std::strerror(error);
}

// One path of the restore, with all it needs to be done and undone.
struct PathStep {
  std::string path;
  std::optional<FileRecord> now;    ///< what is there (checked against the expected state)
  std::optional<FileRecord> target; ///< what it becomes
  std::string content;              ///< a target file's bytes
  int folder = -1;                  ///< its held folder
  std::string leaf;
  std::string staging;              ///< the staged file or symlink's name in `folder`
  std::string backup;               ///< the hard link keeping the replaced or removed file, in the root
  struct stat identity {};          ///< the present file's, for the journal
};

class Restore {
public:
  Restore(int root, const ChunkStore& store, const RestoreOptions& options) : root_(root), store_(store), options_(options) {}
  ~Restore() {
    for (auto& step : steps_)
      if (step.folder >= 0) ::close(step.folder);
  }

  RestoreResult run(const std::vector<std::string>& paths, const WorkspaceState& target, const WorkspaceState& expected) {
    if (!check(paths, target, expected) || !load() || !stage()) return finishFailed();
    if (!journalCommitting()) return finishFailed();
    if (!commit()) {
      undo();
      return finishFailed();
    }
    for (auto& step : steps_)
      if (!step.backup.empty()) ::unlinkat(root_, step.backup.c_str(), 0);
    ::fsync(root_);
    for (auto& step : steps_) {
      if (step.folder >= 0) ::fsync(step.folder);
      result_.restored.push_back(step.path);
    }
    transaction_.reset();
    return std::move(result_);
  }

private:
  // Every path is compared with what it should hold now; any difference refuses the whole restore.
  bool check(const std::vector<std::string>& paths, const WorkspaceState& target, const WorkspaceState& expected) {
    std::vector<std::string> sorted = paths;
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    for (const auto& path : sorted) {
      if (!isWellFormedRelativePath(path)) return fail("not a workspace-relative path: " + path);
      auto present = recordPath(root_, path, nullptr);
      if (auto* error = std::get_if<std::string>(&present)) return fail(*error);
      auto now = std::get<std::optional<FileRecord>>(std::move(present));
      const auto wanted = target.find(path);
      const std::optional<FileRecord> goal = wanted == target.end() ? std::nullopt : std::optional(wanted->second);
      if ((!now && !goal) || (now && goal && now->sameState(*goal))) continue; // already as recorded
      const auto hoped = expected.find(path);
      const bool asExpected = hoped == expected.end() ? !now : (now && now->sameState(hoped->second));
      if (!asExpected) result_.conflicts.push_back(path);
      if (goal && goal->kind == EntryKind::File && goal->hashOnly)
        return fail(path + " was over the size limit and recorded by hash only: it cannot be restored");
      steps_.push_back(PathStep{path, std::move(now), goal, {}, -1, {}, {}, {}, {}});
    }
    if (!result_.conflicts.empty()) {
      std::string names;
      for (const auto& path : result_.conflicts) names += (names.empty() ? "" : ", ") + path;
      return fail("changed since the checkpoint outside this session (nothing was restored): " + names);
    }
    return true;
  }

  bool load() {
    for (auto& step : steps_) {
      if (!step.target || step.target->kind != EntryKind::File) continue;
      auto bytes = recordedContent(*step.target, store_);
      if (bytes.index() == 1) return fail(std::get<1>(bytes) + " (nothing was restored)");
      step.content = std::move(std::get<0>(bytes));
    }
    return true;
  }

  // New contents and symlinks are staged beside their targets (their folders made when missing);
  // nothing visible has changed yet but those folders, which the journal lists.
  bool stage() {
    std::vector<fs::path> folders;
    std::vector<JournalEntry> entries;
    for (auto& step : steps_) {
      // Missing folders on the way to a path that will exist are made now, in path order (a parent
      // before what goes in it), and listed to be removed again on failure.
      OpenedFolder opened = openFolderOf(root_, step.path, step.target ? &createdFolders_ : nullptr);
      if (opened.fd < 0) return fail(opened.error);
      step.folder = opened.fd;
      step.leaf = opened.leaf;
      if (step.now && step.now->kind != EntryKind::Folder &&
          ::fstatat(step.folder, step.leaf.c_str(), &step.identity, AT_SYMLINK_NOFOLLOW) != 0)
        return fail(systemError("cannot stat", step.path));
      if (isLeaf(step.target)) step.staging = stagingPathFor(step.leaf).filename().string();
    }
    if (options_.journal && !options_.rootPath.empty()) {
      for (const auto& folder : createdFolders_) folders.push_back(options_.rootPath / folder);
      for (const auto& step : steps_) {
        const fs::path absolute = options_.rootPath / step.path;
        if (isLeaf(step.target)) entries.push_back({absolute, absolute.parent_path() / step.staging, 0, 0});
        else if (isLeaf(step.now))
          entries.push_back({absolute, {}, static_cast<std::uint64_t>(step.identity.st_dev),
                             static_cast<std::uint64_t>(step.identity.st_ino)});
      }
      // The links that keep replaced files are named now, so the journal can remove them after a kill.
      for (auto& step : steps_)
        if (isLeaf(step.now)) {
          step.backup = stagingPathFor(step.leaf).filename().string();
          entries.push_back({options_.rootPath / step.backup, {},
                             static_cast<std::uint64_t>(step.identity.st_dev),
                             static_cast<std::uint64_t>(step.identity.st_ino)});
        }
      auto begun = options_.journal->begin(folders, entries, true);
      if (auto* error = std::get_if<std::string>(&begun)) return fail("cannot journal the restore: " + *error);
      transaction_ = std::move(std::get<std::unique_ptr<ChangeJournal::Transaction>>(begun));
    }
    for (auto& step : steps_) {
      if (!isLeaf(step.target)) continue;
      if (step.target->kind == EntryKind::Symlink) {
        if (::symlinkat(step.target->linkTarget.c_str(), step.folder, step.staging.c_str()) != 0)
          return fail(systemError("cannot stage the link", step.path));
        continue;
      }
      auto staged = stageFileWrite(step.folder, step.leaf, step.content, step.target->mode,
                                   StagingOptions{.temporary = step.staging, .flush = true});
      if (auto* error = std::get_if<std::string>(&staged)) return fail(*error);
      // Staging keeps a replaced file's mode; the record's is wanted.
      if (::fchmodat(step.folder, step.staging.c_str(), step.target->mode, 0) != 0)
        return fail(systemError("cannot set the mode of", step.path));
    }
    return true;
  }

  bool journalCommitting() {
    if (!transaction_) return true;
    const std::string error = transaction_->advance(JournalState::Committing);
    return error.empty() || fail("cannot journal the restore: " + error);
  }

  bool injected() { return options_.failBeforeStep && options_.failBeforeStep(stepCount_++); }

  // The visible steps, each recorded in `done_` so that a failure can undo exactly those. The links
  // that keep replaced and removed files are made in the workspace's root folder, not beside them,
  // so that a folder the restore removes is empty once its files are gone.
  bool commit() {
    for (auto& step : steps_) {
      if (!isLeaf(step.now)) continue;
      if (step.backup.empty()) step.backup = stagingPathFor(step.leaf).filename().string();
      if (injected() || ::linkat(step.folder, step.leaf.c_str(), root_, step.backup.c_str(), 0) != 0) {
        const int saved = errno;
        step.backup.clear();
        return fail(systemError("cannot keep the present version of", step.path, saved));
      }
    }
    if (!unchangedSinceChecked()) return false;
    for (auto& step : steps_)
      if (isLeaf(step.now) && !isLeaf(step.target)) {
        if (injected() || ::unlinkat(step.folder, step.leaf.c_str(), 0) != 0)
          return fail(systemError("cannot remove", step.path));
        done_.push_back({Done::Unlinked, &step});
      }
    // Folders that go: innermost first.
    std::vector<PathStep*> order;
    for (auto& step : steps_) order.push_back(&step);
    std::stable_sort(order.begin(), order.end(), [](auto* a, auto* b) { return depth(a->path) > depth(b->path); });
    for (auto* step : order)
      if (isFolder(step->now) && !isFolder(step->target)) {
        if (injected() || ::unlinkat(step->folder, step->leaf.c_str(), AT_REMOVEDIR) != 0)
          return fail(systemError("cannot remove the folder", step->path));
        done_.push_back({Done::FolderRemoved, step});
      }
    // Folders that come or change mode: outermost first.
    std::reverse(order.begin(), order.end());
    for (auto* step : order) {
      if (!isFolder(step->target)) continue;
      // A folder staging already made for a file inside it is there; removing it on failure is
      // finishFailed's.
      const bool madeForStaging =
          std::find(createdFolders_.begin(), createdFolders_.end(), step->path) != createdFolders_.end();
      if (!isFolder(step->now) && !madeForStaging) {
        if (injected() || ::mkdirat(step->folder, step->leaf.c_str(), step->target->mode) != 0)
          return fail(systemError("cannot create the folder", step->path));
        done_.push_back({Done::FolderMade, step});
      }
      if (injected() || ::fchmodat(step->folder, step->leaf.c_str(), step->target->mode, 0) != 0)
        return fail(systemError("cannot set the mode of", step->path));
      if (isFolder(step->now)) done_.push_back({Done::FolderModeSet, step});
    }
    for (auto& step : steps_)
      if (isLeaf(step.target)) {
        if (injected() || ::renameat(step.folder, step.staging.c_str(), step.folder, step.leaf.c_str()) != 0)
          return fail(systemError("cannot replace", step.path));
        done_.push_back({Done::Renamed, &step});
      }
    return true;
  }

  // The paths were checked by content while the restore was prepared (reading the store, staging);
  // right before the first visible step each is looked at again, by its stamp, so an edit made
  // meanwhile refuses the restore too. (What is left is the microseconds between this look and the
  // step; toold's own tools are kept out by the path locks its caller holds.)
  bool unchangedSinceChecked() {
    for (const auto& step : steps_) {
      // A folder staging made is there because of this restore.
      if (!step.now && std::find(createdFolders_.begin(), createdFolders_.end(), step.path) != createdFolders_.end())
        continue;
      struct stat status {};
      const bool present = ::fstatat(step.folder, step.leaf.c_str(), &status, AT_SYMLINK_NOFOLLOW) == 0;
      bool same = present == step.now.has_value();
      if (same && present && step.now->kind != EntryKind::Folder) {
        const std::int64_t mtime =
            static_cast<std::int64_t>(status.st_mtim.tv_sec) * 1'000'000'000 + status.st_mtim.tv_nsec;
        same = static_cast<std::uint64_t>(status.st_ino) == step.now->inode &&
               static_cast<std::uint64_t>(status.st_size) == step.now->size && mtime == step.now->mtimeNanoseconds &&
               (status.st_mode & 07777) == step.now->mode;
      } else if (same && present) {
        same = S_ISDIR(status.st_mode) && (status.st_mode & 07777) == step.now->mode;
      }
      if (!same) {
        result_.conflicts.push_back(step.path);
        return fail("changed while the restore was being prepared, outside this session (nothing was restored): " +
                    step.path);
      }
    }
    return true;
  }

  void undo() {
    if (transaction_) transaction_->advance(JournalState::RollingBack);
    std::vector<std::string> unrestored;
    for (auto it = done_.rbegin(); it != done_.rend(); ++it) {
      PathStep& step = *it->step;
      const char* leaf = step.leaf.c_str();
      // Opened afresh: the folder held may have been removed, and made again by this undo.
      OpenedFolder folder = openFolderOf(root_, step.path);
      bool ok = folder.fd >= 0;
      if (ok) switch (it->what) {
        case Done::Unlinked:
        case Done::Renamed:
          if (!step.backup.empty()) ok = ::renameat(root_, step.backup.c_str(), folder.fd, leaf) == 0;
          else ok = ::unlinkat(folder.fd, leaf, 0) == 0;
          if (ok) step.backup.clear();
          break;
        case Done::FolderRemoved:
          ok = ::mkdirat(folder.fd, leaf, step.now->mode) == 0 && ::fchmodat(folder.fd, leaf, step.now->mode, 0) == 0;
          break;
        case Done::FolderMade: ok = ::unlinkat(folder.fd, leaf, AT_REMOVEDIR) == 0; break;
        case Done::FolderModeSet: ok = ::fchmodat(folder.fd, leaf, step.now->mode, 0) == 0; break;
        }
      if (folder.fd >= 0) ::close(folder.fd);
      if (!ok) unrestored.push_back(step.path);
    }
    if (!unrestored.empty()) {
      std::string names;
      for (const auto& path : unrestored) names += (names.empty() ? "" : ", ") + path;
      result_.error += "; and these could not be put back: " + names;
    }
  }

  // After a failure: staged files, links kept and folders made for staging go; the journal too.
  RestoreResult finishFailed() {
    for (auto& step : steps_) {
      if (step.folder < 0) continue;
      if (!step.staging.empty()) ::unlinkat(step.folder, step.staging.c_str(), 0);
      if (!step.backup.empty()) ::unlinkat(root_, step.backup.c_str(), 0);
    }
    for (auto it = createdFolders_.rbegin(); it != createdFolders_.rend(); ++it)
      ::unlinkat(root_, it->c_str(), AT_REMOVEDIR);
    transaction_.reset();
    result_.restored.clear();
    return std::move(result_);
  }

  bool fail(std::string error) {
    if (result_.error.empty()) result_.error = std::move(error);
    return false;
  }

  struct Done {
    enum What { Unlinked, FolderRemoved, FolderMade, FolderModeSet, Renamed } what;
    PathStep* step;
  };

  int root_;
  const ChunkStore& store_;
  const RestoreOptions& options_;
  std::vector<PathStep> steps_;
  std::vector<std::string> createdFolders_;
  std::vector<Done> done_;
  std::size_t stepCount_ = 0;
  std::unique_ptr<ChangeJournal::Transaction> transaction_;
  RestoreResult result_;
};

} // namespace

RestoreResult restoreState(int root, const std::vector<std::string>& paths, const WorkspaceState& target,
                           const WorkspaceState& expected, const ChunkStore& store, const RestoreOptions& options) {
  Restore restore(root, store, options);
  return restore.run(paths, target, expected);
}

} // namespace toold::core
