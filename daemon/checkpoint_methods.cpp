#include "daemon/checkpoint_methods.h"

#include "builtins/checkpoint/checkpoint_actions.h"
#include "core/tool_service.h"
#include "daemon/checkpoint_wire.h"
#include "daemon/server.h"

namespace toold::daemon {

namespace {

/// Answers an action's result, or its refusal as the methods' error.
void answer(const Reply& reply, builtins::CheckpointAnswer<json> outcome) {
  if (auto* refusal = std::get_if<builtins::CheckpointRefusal>(&outcome)) return reply.error(checkpointError(*refusal));
  reply(std::move(std::get<json>(outcome)));
}

} // namespace

void bindCheckpointMethods(Server& server, core::ToolService& tools) {
  MethodTable& methods = server.methods();
  auto book = tools.checkpoints();
  if (!book) {
    for (const char* method : {"checkpoint/list", "checkpoint/diff", "checkpoint/restore", "checkpoint/redo"})
      methods.request(method, [](json&&, const RequestContext&, Reply reply) {
        reply.error(checkpointError(builtins::checkpointsOff()));
      });
    return;
  }

  methods.request("checkpoint/list", [book](json&& params, const RequestContext&, Reply reply) {
    const auto selection = readCheckpointSelection(params, false, false);
    reply(builtins::listCheckpoints(*book, selection.sessionID));
  });

  methods.request("checkpoint/diff", [&tools](json&& params, const RequestContext&, Reply reply) {
    answer(reply, builtins::diffCheckpoints(tools, readCheckpointSelection(params, true, true)));
  });

  // With neither callID nor messageID: the session's newest call still standing.
  methods.request("checkpoint/restore", [&tools](json&& params, const RequestContext&, Reply reply) {
    builtins::restoreCheckpoints(tools, readCheckpointSelection(params, false, false), false, "checkpoint/restore",
                                 [reply](builtins::CheckpointAnswer<json> outcome) { answer(reply, std::move(outcome)); });
  });

  methods.request("checkpoint/redo", [&tools](json&& params, const RequestContext&, Reply reply) {
    builtins::restoreCheckpoints(tools, readCheckpointSelection(params, false, false), true, "checkpoint/redo",
                                 [reply](builtins::CheckpointAnswer<json> outcome) { answer(reply, std::move(outcome)); });
  });
}

} // namespace toold::daemon
