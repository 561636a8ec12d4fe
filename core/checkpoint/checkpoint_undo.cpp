#include "core/checkpoint/checkpoint_undo.h"

#include "core/checkpoint/change_tracker.h"

namespace toold::core {

UndoOutcome carryOut(CheckpointBook& book, const RestorePlan& plan, int root, ChangeJournal* journal,
                     const CallIdentity& identity) {
  UndoOutcome outcome;
  const std::int64_t started = checkpointClockMs();
  // The restore's own changes are told to the tracker below, not found by it and blamed on a call.
  ChangeTracker* tracker = book.tracker();
  std::optional<ChangeTracker::Mark> mark;
  if (tracker) mark = tracker->begin();
  RestoreOptions options;
  options.journal = journal;
  options.rootPath = book.workspace();
  outcome.result = restoreState(root, plan.paths, plan.target, plan.expected, book.store(), options);
  if (tracker) {
    for (const auto& path : outcome.result.restored) {
      const auto it = plan.target.find(path);
      tracker->told(path, it == plan.target.end() ? std::nullopt : std::optional<FileRecord>(it->second));
    }
    tracker->end(*mark);
  }
  if (!outcome.result.error.empty() || outcome.result.restored.empty()) return outcome;
  Checkpoint checkpoint;
  checkpoint.kind = plan.kind;
  checkpoint.of = plan.of;
  checkpoint.sessionID = identity.sessionID;
  checkpoint.messageID = identity.messageID;
  checkpoint.callID = identity.callID;
  checkpoint.tool = identity.tool;
  checkpoint.startedMs = started;
  checkpoint.finishedMs = checkpointClockMs();
  for (const auto& path : outcome.result.restored) {
    if (auto it = plan.expected.find(path); it != plan.expected.end()) checkpoint.before.emplace(path, it->second);
    if (auto it = plan.target.find(path); it != plan.target.end()) checkpoint.after.emplace(path, it->second);
  }
  outcome.recordError = book.write(checkpoint);
  if (outcome.recordError.empty()) outcome.sequence = checkpoint.sequence;
  return outcome;
}

} // namespace toold::core
