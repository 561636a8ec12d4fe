#include "core/checkpoint/state_diff.h"

#include <algorithm>

namespace toold::core {

namespace {

bool renameCandidate(const FileRecord& record) {
  return record.kind == EntryKind::Symlink || (record.kind == EntryKind::File && record.size > 0);
}

} // namespace

std::vector<StateChange> diffStates(const WorkspaceState& before, const WorkspaceState& after) {
  std::vector<StateChange> changes;
  std::vector<const FileRecord*> deleted, created;
  for (const auto& [path, old] : before) {
    const auto now = after.find(path);
    if (now == after.end()) {
      deleted.push_back(&old);
      continue;
    }
    if (!old.sameContent(now->second))
      changes.push_back({ChangeKind::Modified, path, {}, old, now->second, old.mode != now->second.mode});
    else if (old.mode != now->second.mode)
      changes.push_back({ChangeKind::ModeChanged, path, {}, old, now->second, true});
  }
  for (const auto& [path, now] : after)
    if (!before.contains(path)) created.push_back(&now);

  // Pair each created path with the first unpaired deleted one of the same content (deleted paths
  // are in path order, so the pairing is deterministic).
  std::vector<bool> deletedUsed(deleted.size(), false);
  for (const FileRecord* now : created) {
    bool paired = false;
    if (renameCandidate(*now))
      for (std::size_t i = 0; i < deleted.size() && !paired; ++i) {
        if (deletedUsed[i] || !renameCandidate(*deleted[i]) || !deleted[i]->sameContent(*now)) continue;
        deletedUsed[i] = paired = true;
        changes.push_back({ChangeKind::Renamed, now->path, deleted[i]->path, *deleted[i], *now,
                           deleted[i]->mode != now->mode});
      }
    if (!paired) changes.push_back({ChangeKind::Created, now->path, {}, std::nullopt, *now, false});
  }
  for (std::size_t i = 0; i < deleted.size(); ++i)
    if (!deletedUsed[i]) changes.push_back({ChangeKind::Deleted, deleted[i]->path, {}, *deleted[i], std::nullopt, false});

  std::stable_sort(changes.begin(), changes.end(),
                   [](const StateChange& a, const StateChange& b) { return a.path < b.path; });
  return changes;
}

const char* changeKindName(ChangeKind kind) {
  switch (kind) {
  case ChangeKind::Created: return "created";
  case ChangeKind::Modified: return "modified";
  case ChangeKind::Deleted: return "deleted";
  case ChangeKind::Renamed: return "renamed";
  case ChangeKind::ModeChanged: return "modeChanged";
  }
  return "changed";
}

} // namespace toold::core
