#include "builtins/checkpoint/checkpoint_actions.h"

#include "builtins/checkpoint/checkpoint_diff.h"
#include "core/checkpoint/checkpoint_undo.h"
#include "core/files/change_journal.h"
#include "core/output/output_bounding.h"
#include "core/output/output_store.h"
#include "core/tool_service.h"
#include "core/workspace/workspace_root.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <fcntl.h>
#include <unistd.h>

namespace toold::builtins {

namespace {

using core::Checkpoint;
using core::CheckpointBook;
using core::RestorePlan;

CheckpointRefusal unavailable(std::string_view reason, std::string message) {
  return CheckpointRefusal{false, std::string(reason), std::move(message), {}};
}

/// The session's checkpoints, or why there are none.
CheckpointAnswer<CheckpointBook::History> historyOf(const CheckpointBook& book, const std::string& session) {
  auto history = book.history(session);
  if (!history.checkpoints.empty()) return history;
  if (!history.evicted.empty()) return unavailable("evicted", "the checkpoints of session " + session + " were " + history.evicted);
  return unavailable("unknownSession",
                     "session " + session + " has no checkpoints: it changed nothing in this workspace while checkpoints were on");
}

std::string pickText(const CheckpointPick& pick) {
  if (pick.callID) return "call " + *pick.callID;
  if (pick.messageID) return "message " + *pick.messageID;
  if (pick.from && pick.to) return "checkpoints " + std::to_string(*pick.from) + " to " + std::to_string(*pick.to);
  return "any call";
}

std::string_view reasonOf(RestorePlan::Refusal refusal) {
  switch (refusal) {
  case RestorePlan::Refusal::UnknownCheckpoint: return "unknownCheckpoint";
  case RestorePlan::Refusal::NothingToRedo: return "nothingToRedo";
  case RestorePlan::Refusal::Unrestorable: return "unrestorable";
  case RestorePlan::Refusal::None: break;
  }
  return "failed";
}

/// The plan of a restore (or redo) from the session's history as it is now.
using Planner = std::function<RestorePlan(const std::vector<Checkpoint>&)>;

Planner plannerFor(const CheckpointPick& pick, bool redo) {
  if (redo) return [](const std::vector<Checkpoint>& history) { return core::planRedo(history); };
  return [pick](const std::vector<Checkpoint>& history) {
    // No call or message named: the session's newest call still standing (an undo button).
    const bool newest = !pick.callID && !pick.messageID;
    const auto from = newest ? core::newestStandingCall(history)
                             : core::firstCheckpointOf(history, pick.callID ? &*pick.callID : nullptr,
                                                       pick.messageID ? &*pick.messageID : nullptr);
    if (!from) {
      RestorePlan none;
      none.refusal = RestorePlan::Refusal::UnknownCheckpoint;
      none.error = newest ? "session " + pick.sessionID + " has no call left to undo: every change it made was restored"
                          : "session " + pick.sessionID + " has no checkpoint of " + pickText(pick);
      return none;
    }
    return core::planRestore(history, *from);
  };
}

// The workspace folder for the restore's *at calls: from the held root (never by name when
// toold holds it), else by its path.
int openWorkspace(const core::Location& location) {
  if (location.root) return ::openat(location.root->folder.get(), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  return ::open(location.directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

json restoreResultJson(std::uint64_t checkpoint, const std::vector<std::string>& restored) {
  return json{{"checkpoint", checkpoint}, {"restored", restored}};
}

} // namespace

CheckpointRefusal checkpointsOff() {
  return unavailable("off", "checkpoints are off (--checkpoints off, or toold.json's checkpoints.enabled)");
}

json checkpointSummaryJson(const core::Checkpoint& checkpoint) {
  json changes = json::array();
  for (const auto& change : core::diffStates(checkpoint.before, checkpoint.after)) {
    json entry{{"path", change.path}, {"change", core::changeKindName(change.kind)}};
    if (!change.fromPath.empty()) entry["from"] = change.fromPath;
    // A folder's size is the file system's bookkeeping, not content anyone changed.
    if (change.before && change.before->kind != core::EntryKind::Folder) entry["sizeBefore"] = change.before->size;
    if (change.after && change.after->kind != core::EntryKind::Folder) entry["sizeAfter"] = change.after->size;
    const auto& unrestorable = checkpoint.unrestorable;
    const bool restorable = std::find(unrestorable.begin(), unrestorable.end(), change.path) == unrestorable.end() &&
                            std::find(unrestorable.begin(), unrestorable.end(), change.fromPath) == unrestorable.end() &&
                            !(change.before && change.before->hashOnly);
    entry["restorable"] = restorable;
    changes.push_back(std::move(entry));
  }
  json summary{{"id", checkpoint.sequence},
               {"kind", core::checkpointKindName(checkpoint.kind)},
               {"messageID", checkpoint.messageID},
               {"callID", checkpoint.callID},
               {"tool", checkpoint.tool},
               {"started", checkpoint.startedMs},
               {"finished", checkpoint.finishedMs},
               {"changes", std::move(changes)}};
  if (checkpoint.concurrent) summary["concurrent"] = true;
  if (!checkpoint.note.empty()) summary["note"] = checkpoint.note;
  if (checkpoint.of != 0) summary["of"] = checkpoint.of;
  return summary;
}

json listCheckpoints(const core::CheckpointBook& book, const std::string& sessionID) {
  const auto history = book.history(sessionID);
  json list = json::array();
  for (const auto& checkpoint : history.checkpoints) list.push_back(checkpointSummaryJson(checkpoint));
  json result{{"sessionID", sessionID}, {"checkpoints", std::move(list)}};
  if (!history.evicted.empty()) result["evicted"] = history.evicted;
  return result;
}

CheckpointAnswer<json> diffCheckpoints(core::ToolService& tools, const CheckpointPick& pick) {
  const auto book = tools.checkpoints();
  if (!book) return checkpointsOff();
  auto history = historyOf(*book, pick.sessionID);
  if (auto* refusal = std::get_if<CheckpointRefusal>(&history)) return std::move(*refusal);
  auto& found = std::get<CheckpointBook::History>(history);
  std::vector<Checkpoint> chosen;
  for (auto& checkpoint : found.checkpoints) {
    const bool wanted = pick.callID      ? checkpoint.callID == *pick.callID
                        : pick.messageID ? checkpoint.messageID == *pick.messageID
                        : pick.from      ? checkpoint.sequence >= *pick.from && checkpoint.sequence <= pick.to.value_or(*pick.from)
                                         : true;
    if (wanted) chosen.push_back(std::move(checkpoint));
  }
  if (chosen.empty() && !found.evicted.empty())
    return unavailable("evicted", "session " + pick.sessionID + " has no checkpoint of " + pickText(pick) +
                                      ": its older checkpoints were " + found.evicted);
  if (chosen.empty())
    return unavailable("unknownCheckpoint", "session " + pick.sessionID + " has no checkpoint of " + pickText(pick));
  auto diff = diffOfChange(core::changeOfRange(chosen, 0, chosen.size() - 1), book->store());
  // Bounded like any tool's answer, the whole text kept in the tool-output folder.
  const auto location = tools.location();
  auto bounded = core::boundContent(json::array({json{{"type", "text"}, {"text", diff.text}}}), tools.options().limits,
                                    [&location](std::string_view text) { return location->outputs->retain(text); });
  json result{{"diff", bounded.content.at(0).at("text")}, {"files", std::move(diff.files)}};
  if (bounded.truncated) {
    result["truncated"] = true;
    if (bounded.outputPath) result["outputPath"] = bounded.outputPath->string();
  }
  return result;
}

// Plans, takes the path locks of the planned paths, plans again under them (a call of the session
// that finished meanwhile counts), and carries the plan out.
void restoreCheckpoints(core::ToolService& tools, const CheckpointPick& pick, bool redo, const std::string& method,
                        std::function<void(CheckpointAnswer<json>)> done) {
  const auto book = tools.checkpoints();
  if (!book) return done(checkpointsOff());
  auto history = historyOf(*book, pick.sessionID);
  if (auto* refusal = std::get_if<CheckpointRefusal>(&history)) return done(std::move(*refusal));
  const auto& found = std::get<CheckpointBook::History>(history);
  Planner planner = plannerFor(pick, redo);
  RestorePlan plan = planner(found.checkpoints);
  if (plan.refusal == RestorePlan::Refusal::UnknownCheckpoint && !found.evicted.empty())
    return done(unavailable("evicted", plan.error + ": the session's older checkpoints were " + found.evicted));
  if (!plan.error.empty()) return done(unavailable(reasonOf(plan.refusal), plan.error));
  std::vector<std::string> keys;
  for (const auto& path : plan.paths) keys.push_back((book->workspace() / path).string());
  auto location = tools.location();
  tools.pathLocks()->acquireAll(keys, [book, location, pick, method, planner = std::move(planner), done = std::move(done),
                                       planned = plan.paths](core::PathLocks::Lease) {
    RestorePlan fresh = planner(book->history(pick.sessionID).checkpoints);
    if (!fresh.error.empty()) return done(unavailable(reasonOf(fresh.refusal), fresh.error));
    if (!std::includes(planned.begin(), planned.end(), fresh.paths.begin(), fresh.paths.end()))
      return done(unavailable("changed", "the session changed other paths while the restore waited; ask again"));
    const int root = openWorkspace(*location);
    if (root < 0) return done(unavailable("failed", "cannot open the workspace folder"));
    auto outcome = core::carryOut(*book, fresh, root, core::processJournal(), core::CallIdentity{pick.sessionID, "", "", method});
    ::close(root);
    if (!outcome.result.conflicts.empty())
      return done(CheckpointRefusal{true, "conflict", outcome.result.error, outcome.result.conflicts});
    if (!outcome.result.error.empty())
      return done(unavailable(outcome.result.error.find("(evicted)") != std::string::npos ? "evicted" : "failed",
                              outcome.result.error));
    if (!outcome.recordError.empty()) spdlog::warn("{}: restored, but not recorded: {}", method, outcome.recordError);
    done(restoreResultJson(outcome.sequence, outcome.result.restored));
  });
}

} // namespace toold::builtins
