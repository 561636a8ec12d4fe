// The per-call pipeline, in the order seed 000 gives: before-hooks, resolve (in the snapshot the
// call names), decode the input, the doom-loop check, execute (the tool asserts its permissions), check and encode the output, normalize the content,
// bound it (retaining the full text), validate the metadata, after-hooks, outcome. One bad call
// never fails another: each call carries its own state and its own answer.
#pragma once

#include "core/base/worker_threads.h"
#include "core/output/output_bounding.h"
#include "core/tools/snapshot.h"
#include "protocol/error_code.h"
#include "protocol/tool_messages.h"
#include "protocol/tool_outcome.h"

#include <boost/asio/thread_pool.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <variant>

namespace toold::core {

class CallHandover;
class OutputStore;
class PermissionService;
class SessionTable;
class ToolHooks;

/// A call's answer: an outcome, or a JSON-RPC error for what is not one (a defect, an operational
/// failure such as a retention write error). Interruption produces no answer at all: whoever
/// cancelled the call has answered it (-32800).
using CallAnswer = std::variant<protocol::ToolOutcome, protocol::RpcError>;

/// What the transport gives one call: where progress goes, and its cancellation.
struct CallIo {
  std::function<void(json update)> progress;
  CancellationToken cancellation;
  /// A call a Code Mode program made: the doom-loop check judges the program's own call, not
  /// each of the many identical calls a loop inside it may make.
  bool insideProgram = false;
  /// The caller has more to do at once (the reader, with more frames of the same read waiting):
  /// the call starts on the handover's thread (call_handover.h), so that calls of different
  /// sessions overlap; the caller may wait while too many wait to start there.
  bool startElsewhere = false;
  /// How long the caller can wait for the answer (ToolContext::foregroundLimit); nullopt: no bound.
  std::optional<std::chrono::milliseconds> foregroundLimit{};
  /// The budget of the face the call came through (its client's own limits); none: the
  /// service's. It bounds the answer, and the tool fits its own pages into it.
  std::optional<BoundingLimits> limits = std::nullopt;
  /// The face hands the output to its host as well as the text (MCP's structuredContent, which
  /// some hosts give the model): the output's strings are then bounded by `limits` too.
  bool boundOutput = false;
};

class CallPipeline {
public:
  struct Services {
    SessionTable& sessions;
    ToolHooks& hooks;
    OutputStore& outputs;
    PermissionService& permissions;
    WorkerThreads& workers;
    std::shared_ptr<const Location> location;
    BoundingLimits limits;
  };

  explicit CallPipeline(Services services);
  ~CallPipeline();

  /// Runs one call through `snapshot`; `answer` runs at most once, from any thread.
  void call(std::shared_ptr<const Snapshot> snapshot, protocol::CallParams params, CallIo io,
            std::function<void(CallAnswer)> answer) const;

private:
  Services services_;
  /// Where calls with CallIo::startElsewhere start.
  std::unique_ptr<CallHandover> handover_;
  /// The session of the last call with CallIo::startElsewhere (those come one at a time, from the
  /// reader's dispatch): a session's calls in a row stay together, on the reader.
  mutable std::string lastSessionElsewhere_;
};

} // namespace toold::core
