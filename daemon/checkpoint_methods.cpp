#include "daemon/checkpoint_methods.h"

#include "core/checkpoint/checkpoint_undo.h"
#include "core/files/change_journal.h"
#include "core/output/output_bounding.h"
#include "core/output/output_store.h"
#include "core/tool_service.h"
#include "core/workspace/workspace_root.h"
#include "daemon/checkpoint_diff.h"
#include "daemon/checkpoint_wire.h"
#include "daemon/server.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <fcntl.h>
#include <unistd.h>

namespace toold::daemon {

namespace {

using core::Checkpoint;
using core::CheckpointBook;
using core::RestorePlan;
using protocol::RpcError;

void unavailable(const Reply& reply, std::string_view reason, std::string message) {
  reply.error(RpcError{kCheckpointUnavailable, std::move(message), json{{"reason", reason}}});
}

/// The session's checkpoints, or nullopt with the error answered.
std::optional<CheckpointBook::History> historyOf(const CheckpointBook& book, const std::string& session,
                                                 const Reply& reply) {
  auto history = book.history(session);
  if (!history.checkpoints.empty()) return history;
  if (!history.evicted.empty())
    unavailable(reply, "evicted", "the checkpoints of session " + session + " were " + history.evicted);
  else
    unavailable(reply, "unknownSession",
                "session " + session + " has no checkpoints: it changed nothing in this workspace while checkpoints were on");
  return std::nullopt;
}

std::string selectionText(const CheckpointSelection& selection) {
  if (selection.callID) return "call " + *selection.callID;
  if (selection.messageID) return "message " + *selection.messageID;
  return "checkpoints " + std::to_string(*selection.from) + " to " + std::to_string(*selection.to);
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

/// The plan of a restore (or redo) from the session's history as it is now; its refusal when
/// there is none (a session or call unknown: UnknownCheckpoint, with the words to say).
using Planner = std::function<RestorePlan(const std::vector<Checkpoint>&)>;

RestorePlan planFor(const CheckpointBook& book, const CheckpointSelection& selection, const Planner& planner) {
  return planner(book.history(selection.sessionID).checkpoints);
}

// The workspace folder for the restore's *at calls: from the held root (never by name when
// toold holds it), else by its path.
int openWorkspace(const core::Location& location) {
  if (location.root) return ::openat(location.root->folder.get(), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  return ::open(location.directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

// Plans, takes the path locks of the planned paths, plans again under them (a call of the session
// that finished meanwhile counts), and carries the plan out.
void restoreUnderLocks(core::ToolService& tools, const std::shared_ptr<CheckpointBook>& book,
                       const CheckpointSelection& selection, const std::string& method, Planner planner, Reply reply) {
  auto history = historyOf(*book, selection.sessionID, reply);
  if (!history) return;
  RestorePlan plan = planner(history->checkpoints);
  if (plan.refusal == RestorePlan::Refusal::UnknownCheckpoint && !history->evicted.empty())
    return unavailable(reply, "evicted", plan.error + ": the session's older checkpoints were " + history->evicted);
  if (!plan.error.empty()) return unavailable(reply, reasonOf(plan.refusal), plan.error);
  std::vector<std::string> keys;
  for (const auto& path : plan.paths) keys.push_back((book->workspace() / path).string());
  auto location = tools.location();
  tools.pathLocks()->acquireAll(keys, [book, location, selection, method, planner = std::move(planner), reply,
                                       planned = plan.paths](core::PathLocks::Lease) {
    RestorePlan fresh = planFor(*book, selection, planner);
    if (!fresh.error.empty()) return unavailable(reply, reasonOf(fresh.refusal), fresh.error);
    if (!std::includes(planned.begin(), planned.end(), fresh.paths.begin(), fresh.paths.end()))
      return unavailable(reply, "changed", "the session changed other paths while the restore waited; ask again");
    const int root = openWorkspace(*location);
    if (root < 0) return unavailable(reply, "failed", "cannot open the workspace folder");
    auto outcome = core::carryOut(*book, fresh, root, core::processJournal(),
                                  core::CallIdentity{selection.sessionID, "", "", method});
    ::close(root);
    if (!outcome.result.conflicts.empty())
      return reply.error(RpcError{kCheckpointConflict, outcome.result.error,
                                  json{{"conflicts", outcome.result.conflicts}}});
    if (!outcome.result.error.empty())
      return unavailable(reply, outcome.result.error.find("(evicted)") != std::string::npos ? "evicted" : "failed",
                         outcome.result.error);
    if (!outcome.recordError.empty()) spdlog::warn("{}: restored, but not recorded: {}", method, outcome.recordError);
    reply(restoreResultJson(outcome.sequence, outcome.result.restored));
  });
}

} // namespace

void bindCheckpointMethods(Server& server, core::ToolService& tools) {
  MethodTable& methods = server.methods();
  auto book = tools.checkpoints();
  for (const char* method : {"checkpoint/list", "checkpoint/diff", "checkpoint/restore", "checkpoint/redo"}) {
    if (book) break;
    methods.request(method, [](json&&, const RequestContext&, Reply reply) {
      unavailable(reply, "off", "checkpoints are off (--checkpoints off, or toold.json's checkpoints.enabled)");
    });
  }
  if (!book) return;

  methods.request("checkpoint/list", [book](json&& params, const RequestContext&, Reply reply) {
    const auto selection = readCheckpointSelection(params, false, false);
    const auto history = book->history(selection.sessionID);
    json list = json::array();
    for (const auto& checkpoint : history.checkpoints) list.push_back(checkpointSummaryJson(checkpoint));
    json result{{"sessionID", selection.sessionID}, {"checkpoints", std::move(list)}};
    if (!history.evicted.empty()) result["evicted"] = history.evicted;
    reply(std::move(result));
  });

  methods.request("checkpoint/diff", [book, &tools](json&& params, const RequestContext&, Reply reply) {
    const auto selection = readCheckpointSelection(params, true, true);
    auto history = historyOf(*book, selection.sessionID, reply);
    if (!history) return;
    std::vector<Checkpoint> chosen;
    for (auto& checkpoint : history->checkpoints) {
      const bool wanted = selection.callID      ? checkpoint.callID == *selection.callID
                          : selection.messageID ? checkpoint.messageID == *selection.messageID
                                                : checkpoint.sequence >= *selection.from && checkpoint.sequence <= *selection.to;
      if (wanted) chosen.push_back(std::move(checkpoint));
    }
    if (chosen.empty() && !history->evicted.empty())
      return unavailable(reply, "evicted", "session " + selection.sessionID + " has no checkpoint of " +
                                               selectionText(selection) + ": its older checkpoints were " + history->evicted);
    if (chosen.empty())
      return unavailable(reply, "unknownCheckpoint",
                         "session " + selection.sessionID + " has no checkpoint of " + selectionText(selection));
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
    reply(std::move(result));
  });

  methods.request("checkpoint/restore", [book, &tools](json&& params, const RequestContext&, Reply reply) {
    const auto selection = readCheckpointSelection(params, true, false);
    Planner planner = [selection](const std::vector<Checkpoint>& history) {
      const auto from = core::firstCheckpointOf(history, selection.callID ? &*selection.callID : nullptr,
                                                selection.messageID ? &*selection.messageID : nullptr);
      if (!from) {
        RestorePlan none;
        none.refusal = RestorePlan::Refusal::UnknownCheckpoint;
        none.error = "session " + selection.sessionID + " has no checkpoint of " + selectionText(selection);
        return none;
      }
      return core::planRestore(history, *from);
    };
    restoreUnderLocks(tools, book, selection, "checkpoint/restore", std::move(planner), reply);
  });

  methods.request("checkpoint/redo", [book, &tools](json&& params, const RequestContext&, Reply reply) {
    const auto selection = readCheckpointSelection(params, false, false);
    restoreUnderLocks(tools, book, selection, "checkpoint/redo",
                      [](const std::vector<Checkpoint>& history) { return core::planRedo(history); }, reply);
  });
}

} // namespace toold::daemon
