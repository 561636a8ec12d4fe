#include "core/checkpoint/checkpoint_range.h"

#include <algorithm>
#include <map>
#include <set>

namespace toold::core {

RangeChange changeOfRange(const std::vector<Checkpoint>& history, std::size_t from, std::size_t to) {
  RangeChange change;
  if (history.empty() || from > to || to >= history.size()) return change;
  change.firstSequence = history[from].sequence;
  change.lastSequence = history[to].sequence;
  std::set<std::string> seen, unrestorable;
  for (std::size_t i = from; i <= to; ++i) {
    const Checkpoint& checkpoint = history[i];
    for (const auto& path : checkpoint.paths()) {
      // The first checkpoint touching a path gives its "before"; every later one its "after".
      if (seen.insert(path).second) {
        if (auto it = checkpoint.before.find(path); it != checkpoint.before.end()) change.before.emplace(path, it->second);
        if (std::find(checkpoint.unrestorable.begin(), checkpoint.unrestorable.end(), path) != checkpoint.unrestorable.end())
          unrestorable.insert(path);
      }
      if (auto it = checkpoint.after.find(path); it != checkpoint.after.end()) change.after.insert_or_assign(path, it->second);
      else change.after.erase(path);
    }
  }
  change.paths.assign(seen.begin(), seen.end());
  change.unrestorable.assign(unrestorable.begin(), unrestorable.end());
  return change;
}

std::optional<std::size_t> firstCheckpointOf(const std::vector<Checkpoint>& history, const std::string* callID,
                                             const std::string* messageID) {
  for (std::size_t i = 0; i < history.size(); ++i) {
    if (history[i].kind != CheckpointKind::Call) continue;
    if ((callID && history[i].callID == *callID) || (messageID && history[i].messageID == *messageID)) return i;
  }
  return std::nullopt;
}

std::optional<std::size_t> newestStandingCall(const std::vector<Checkpoint>& history) {
  // The calls standing, oldest first; a restore takes off those from the one it went back before
  // on (sequences rise), and keeps them so that a redo of it puts them back.
  std::vector<std::size_t> standing;
  std::map<std::uint64_t, std::vector<std::size_t>> undoneBy;
  for (std::size_t i = 0; i < history.size(); ++i) {
    const Checkpoint& checkpoint = history[i];
    if (checkpoint.kind == CheckpointKind::Call) {
      standing.push_back(i);
    } else if (checkpoint.kind == CheckpointKind::Restore) {
      auto& undone = undoneBy[checkpoint.sequence];
      while (!standing.empty() && history[standing.back()].sequence >= checkpoint.of) {
        undone.insert(undone.begin(), standing.back());
        standing.pop_back();
      }
    } else if (auto it = undoneBy.find(checkpoint.of); it != undoneBy.end()) { // a redo
      standing.insert(standing.end(), it->second.begin(), it->second.end());
      undoneBy.erase(it);
    }
  }
  if (standing.empty()) return std::nullopt;
  return standing.back();
}

RestorePlan planRestore(const std::vector<Checkpoint>& history, std::size_t from) {
  RestorePlan plan;
  if (from >= history.size()) {
    plan.refusal = RestorePlan::Refusal::UnknownCheckpoint;
    plan.error = "no such checkpoint";
    return plan;
  }
  RangeChange change = changeOfRange(history, from, history.size() - 1);
  if (!change.unrestorable.empty()) {
    plan.refusal = RestorePlan::Refusal::Unrestorable;
    plan.error = "cannot restore: the version before the change is not known for";
    for (const auto& path : change.unrestorable) plan.error += " " + path;
    plan.paths = std::move(change.unrestorable);
    return plan;
  }
  plan.kind = CheckpointKind::Restore;
  plan.of = history[from].sequence;
  plan.paths = std::move(change.paths);
  plan.target = std::move(change.before);
  plan.expected = std::move(change.after);
  return plan;
}

RestorePlan planRedo(const std::vector<Checkpoint>& history) {
  RestorePlan plan;
  if (history.empty() || history.back().kind != CheckpointKind::Restore) {
    plan.refusal = RestorePlan::Refusal::NothingToRedo;
    plan.error = history.empty() || history.back().kind == CheckpointKind::Call
                     ? "nothing to redo: the session's last checkpoint is not a restore"
                     : "nothing to redo: the session's last restore was undone already";
    return plan;
  }
  const Checkpoint& restore = history.back();
  plan.kind = CheckpointKind::Redo;
  plan.of = restore.sequence;
  plan.paths = restore.paths();
  plan.target = restore.before;
  plan.expected = restore.after;
  return plan;
}

} // namespace toold::core
