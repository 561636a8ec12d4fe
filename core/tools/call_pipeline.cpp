#include "core/tools/call_pipeline.h"

#include "core/schema/invalid_arguments.h"
#include "core/schema/json_schema.h"
#include "core/schema/provider_schema.h"
#include "core/output/output_store.h"
#include "core/permission/permission_service.h"
#include "core/tools/invalid_tool.h"
#include "core/tools/permission_guard.h"
#include "core/tools/structured_output.h"
#include "core/tools/call_checkpoint.h"
#include "core/tools/call_handover.h"
#include "core/tools/call_texts.h"
#include "core/tools/session_table.h"
#include "core/tools/tool_content.h"
#include "core/tools/tool_hooks.h"

#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

namespace toold::core {

using protocol::ErrorCode;
using protocol::RpcError;
using protocol::ToolOutcome;
namespace error_type = protocol::error_type;

namespace {

constexpr std::string_view kDisabledMessage = "Tools are disabled after the maximum agent steps";

// Validating a tool's input (and a tool's output) costs what the client's data makes it cost,
// and the session's queue often runs on the reader thread, which must keep reading (a ping, the
// $/cancelRequest for this very call). So a validation is first tried where the call is, within
// a small budget that every ordinary input fits (a few hundred microseconds at most); one that
// does not fit starts again from the beginning on the worker pool, with the full budget and the
// call's cancellation. The common small call is never handed to another thread.
constexpr std::uint64_t kInlineValidationSteps = 20'000;
constexpr std::chrono::milliseconds kInlineValidationTime{2};

// A text over the limits but this small is cut and saved where the call is: writing it to a new
// file (page cache, a few tens of microseconds) costs less than waking a worker for it and waking
// the queue's thread again for the rest — two thread hand-offs per answer of a proxied MCP tool
// whose text is a little over the face's budget. Larger texts still go to a worker, so that no
// reader or loop thread spends long on a write.
constexpr std::size_t kInlineRetainBytes = 256 * 1024;

// How many calls may wait to start on the handover's thread: enough to keep it busy while the
// reader parses, few enough that a call waits at most about a millisecond to start.
constexpr std::size_t kMaxHandedOver = 32;

// A CPU for each thread but the reader's; past a few, the one reader that feeds them is the limit.
std::size_t handoverThreads() {
  const unsigned cpus = std::thread::hardware_concurrency();
  return std::clamp<std::size_t>(cpus > 1 ? cpus - 1 : 1, 1, 3);
}

// One call's state. Every step runs on the session's queue except the tool body (inline or on a
// worker, per the tool) and the retention write (on a worker).
struct Call : std::enable_shared_from_this<Call> {
  const CallPipeline::Services& services;
  std::shared_ptr<const Snapshot> snapshot;
  protocol::CallParams params;
  CallIo io;
  std::function<void(CallAnswer)> answer;
  std::shared_ptr<Session> session;
  BoundingLimits limits; ///< the face's, else the service's

  const RegisteredTool* tool = nullptr;
  /// The tool's compiled schemas, fetched once per call (compiled at the tool's first call).
  std::shared_ptr<const CompiledSchema> inputSchema, outputSchema;
  json decodedInput;
  ToolOutcome outcome;
  bool preBounded = false;
  std::optional<DoomLoopDetector::Ticket> loopTicket; ///< when the doom-loop check saw this call
  std::shared_ptr<CallRecorder> checkpoint; ///< begun before the tool runs, finished when it is done
  std::string loopNote; ///< a repetition let through by the unattended policy, told after the answer

  std::mutex progressMutex; // progress may come from any thread the tool uses
  std::optional<json> lastProgress;
  std::vector<std::string> notices; // under progressMutex: verdicts arrive on any thread
  bool finished = false;

  Call(const CallPipeline::Services& s, std::shared_ptr<const Snapshot> snap, protocol::CallParams p, CallIo i,
       std::function<void(CallAnswer)> a)
      : services(s), snapshot(std::move(snap)), params(std::move(p)), io(std::move(i)), answer(std::move(a)),
        limits(io.limits.value_or(services.limits)) {
    outcome.sessionID = params.sessionID;
    outcome.agent = params.agent;
    outcome.messageID = params.messageID;
    outcome.callID = params.callID;
  }

  bool interrupted() const { return io.cancellation.isCancelled(); }

  template <class Step>
  void onQueue(Step step) {
    session->queue.run([self = shared_from_this(), step = std::move(step)]() mutable {
      if (!self->interrupted()) step(*self);
    });
  }

  /// `sameSessionAsLast`: the caller's previous call with startElsewhere was of this session too.
  void start(CallHandover& handover, bool sameSessionAsLast) {
    session = services.sessions.get(params.sessionID);
    auto first = [](Call& c) { c.runBeforeHooks(); };
    if (!io.startElsewhere) return onQueue(first);
    if (sameSessionAsLast) {
      // A session's calls run one at a time wherever they run: a second thread gains it nothing
      // and costs a hand-off per call. Its calls in a row run here, once an earlier one handed
      // over has left the queue.
      return session->queue.runHere([self = shared_from_this(), first] {
        if (!self->interrupted()) first(*self);
      });
    }
    if (!handover.tryAdmit()) {
      // Enough calls wait for the handover: this one starts here, as it would without one, and
      // the reader does its work before it reads on. A session whose queue runs elsewhere would
      // only take it into its queue, though; for that one the reader waits for room instead.
      if (!session->queue.busy()) return onQueue(first);
      handover.admit();
    }
    // The first step says it began wherever it runs: on the handover's thread when the session's
    // queue was idle, else after the queue's running task, on that task's thread.
    session->queue.runElsewhere(
        [self = shared_from_this(), &handover] {
          handover.started();
          if (!self->interrupted()) self->runBeforeHooks();
        },
        [&handover, keep = session](SerialQueue::Task task) {
          handover.post([keep, task = std::move(task)] { task(); });
        });
  }

  json identity() const {
    return json{{"sessionID", params.sessionID},
                {"agent", params.agent},
                {"messageID", params.messageID},
                {"callID", params.callID}};
  }

  void runBeforeHooks() {
    if (services.hooks.empty(HookPoint::Before)) return resolve();
    json event = identity();
    event["tool"] = params.name;
    event["input"] = params.input;
    services.hooks.run(HookPoint::Before, std::move(event), [self = shared_from_this()](HookReply reply) {
      self->onQueue([reply = std::move(reply)](Call& c) {
        if (reply.refusal) return c.fail(error_type::kFailure, *reply.refusal, /*afterHooks=*/false);
        if (auto it = reply.event.find("tool"); it != reply.event.end() && it->is_string()) c.params.name = *it;
        if (auto it = reply.event.find("input"); it != reply.event.end()) c.params.input = *it;
        c.resolve();
      });
    });
  }

  void resolve() {
    if (snapshot->final) return fail(error_type::kDisabled, std::string(kDisabledMessage), false);
    tool = snapshot->find(params.name);
    if (tool == nullptr) {
      // `invalid` is never advertised: a runner reaches it by rewriting a call it could not
      // accept, or by asking for repair (opencode's experimental_repairToolCall).
      if (params.name == kInvalidToolName) return answerInvalid(invalidToolError(params.input));
      if (params.repair) return answerInvalid(unknownToolMessage(params.name, *snapshot));
      return fail(error_type::kUnknown, unknownToolMessage(params.name, *snapshot), false);
    }
    // What the provider shaping of the snapshot changed is undone first: the tool's own schema
    // judges the input it describes.
    if (auto undo = snapshot->inputUndo.find(tool->name); undo != snapshot->inputUndo.end())
      undoProjection(params.input, undo->second);
    // A schema toold cannot enforce (the definition's schemaNote says so): the input as it came.
    inputSchema = tool->inputValidator();
    if (!inputSchema) {
      decodedInput = std::move(params.input);
      return guardDoomLoop();
    }
    // The raw input is kept apart only when defaults can change it: the error text shows what the
    // model sent, and most inputs are small enough that one copy matters per call.
    const bool copy = inputSchema->hasDefaults();
    decodedInput = copy ? params.input : std::move(params.input);
    auto checked = inputSchema->decode(decodedInput, inlineBudget());
    if (checked.status != CompiledSchema::Checked::Status::OverBudget) return decoded(std::move(checked));
    if (copy) decodedInput = params.input;  // half filled in: start again from what the model sent
    boost::asio::post(services.workers.pool(), [self = shared_from_this()] {
      if (self->interrupted()) return;
      auto result = self->inputSchema->decode(self->decodedInput, self->fullBudget());
      self->onQueue([result = std::move(result)](Call& c) mutable { c.decoded(std::move(result)); });
    });
  }

  ValidationBudget inlineBudget() const { return {kInlineValidationSteps, kInlineValidationTime, io.cancellation}; }
  ValidationBudget fullBudget() const {
    return {ValidationBudget::kDefaultSteps, ValidationBudget::kDefaultTime, io.cancellation};
  }

  void decoded(CompiledSchema::Checked checked) {
    using Status = CompiledSchema::Checked::Status;
    if (checked.status == Status::Cancelled) return;  // answered -32800 by whoever cancelled
    if (checked.status == Status::Valid) return guardDoomLoop();
    const json& sent = inputSchema->hasDefaults() ? params.input : decodedInput;
    if (params.repair) return answerInvalid(formatInvalidArguments(tool->name, checked.issues, sent));
    fail(error_type::kInvalidInput, formatInvalidArguments(tool->name, checked.issues, sent), false);
  }

  // The call answered through `invalid`: a completed result the model reads, as opencode gives it.
  void answerInvalid(std::string error) {
    outcome.status = ToolOutcome::Status::Completed;
    outcome.content = json::array({json{{"type", "text"}, {"text", invalidArgumentsText(error)}}});
    outcome.metadata = json{{"invalid", {{"tool", params.name}, {"error", std::move(error)}}}};
    finish();
  }

  PermissionCaller permissionCaller() const {
    return PermissionCaller{params.sessionID, params.agent,   params.messageID, params.callID,
                            snapshot->rules,  io.cancellation, tool->name};
  }

  // A call repeating the two before it, which got the same answer, asserts `doom_loop` before it
  // runs. Polling tools are never held: their answers change by themselves.
  void guardDoomLoop() {
    if (tool->polls || io.insideProgram) return execute();
    const auto started = session->doomLoop.start(tool->name, decodedInput);
    loopTicket = started.ticket;
    if (!started.suspect) return execute();
    spdlog::info("call {} (session {}) repeats {} with the same input after two identical answers", params.callID,
                 params.sessionID, tool->name);
    PermissionAsk ask{"doom_loop", {tool->name}, {tool->name}, json{{"tool", tool->name}, {"input", decodedInput}}};
    services.permissions.check(std::move(ask), permissionCaller(), [self = shared_from_this()](PermissionVerdict verdict) {
      self->keepNotice(verdict);
      self->onQueue([verdict = std::move(verdict)](Call& c) mutable {
        if (verdict.granted()) {
          // Let through by the unattended policy, not by a person who saw the repetition: the
          // model still learns it repeated itself, after the answer it asked for.
          if (verdict.byPolicy) c.loopNote = loopNoteAfterAnswer(c.tool->name);
          return c.execute();
        }
        c.session->doomLoop.forget(*c.loopTicket);
        c.loopTicket.reset();
        // Whatever became of the ask (a person's reject or decline, a form no one could answer,
        // the unattended policy), the model learns why it was held: that it repeated itself.
        verdict.message = loopAdvice(c.tool->name) + verdict.message;
        std::visit([&c](auto&& value) { c.settle(std::move(value)); }, refusalOf(verdict));
      });
    });
  }

  // Tells the doom-loop check what the model was shown, so the next identical call can be compared.
  void recordAnswer(const CallAnswer& value) {
    if (!loopTicket) return;
    const auto* answered = std::get_if<ToolOutcome>(&value);
    if (answered == nullptr) return session->doomLoop.forget(*loopTicket);
    session->doomLoop.answered(*loopTicket,
                               DoomLoopDetector::fingerprint(answered->completed(), answered->content,
                                                             answered->errorMessage));
  }

  void keepNotice(const PermissionVerdict& verdict) {
    if (verdict.notice.empty()) return;
    std::lock_guard lock(progressMutex);
    notices.push_back(verdict.notice);
  }

  // The tool's permission assertion: the verdict comes back where the tool runs. A verdict the
  // rules give at once comes back inside check(), on the tool's own thread: it goes on there.
  // Posting it would wake another worker for nothing, and on a busy machine a woken thread can
  // wait a whole scheduler tick for a CPU.
  std::function<void(PermissionAsk, PermissionContinuation)> permissionAssertion() {
    return [self = shared_from_this()](PermissionAsk ask, PermissionContinuation next) {
      const auto checking = std::make_shared<std::atomic<bool>>(true);
      const auto caller = std::this_thread::get_id();
      self->services.permissions.check(
          std::move(ask), self->permissionCaller(),
          [self, checking, caller, next = std::move(next)](PermissionVerdict verdict) mutable {
            self->keepNotice(verdict);
            // The verdict comes once: the continuation (a tool's whole state, often) is moved on,
            // not copied.
            auto resume = [next = std::move(next), verdict = std::move(verdict)] {
              next(verdict.granted() ? std::nullopt : std::optional<ToolCompletion>(refusalOf(verdict)));
            };
            const bool atOnce = checking->load() && std::this_thread::get_id() == caller;
            if (atOnce || self->tool->threading == ToolThreading::Inline) return resume();
            boost::asio::post(self->services.workers.pool(), std::move(resume));
          });
      checking->store(false);
    };
  }

  void execute() {
    checkpoint = startCallCheckpoint(services.location.get(), *tool, params);
    ToolContext context{params.sessionID, params.agent,    params.messageID,      params.callID,
                        progressSink(),   io.cancellation, services.location,     permissionAssertion(),
                        snapshot->catalog, snapshot,
                        [&workers = services.workers](std::function<void()> work) {
                          boost::asio::post(workers.pool(), std::move(work));
                        },
                        io.foregroundLimit, limits, checkpoint};
    ToolDone done = completionHandler();
    // After-hooks are shown the decoded input; without them the tool may have it outright.
    json input = services.hooks.empty(HookPoint::After) ? std::move(decodedInput) : decodedInput;
    auto run = [tool = tool, input = std::move(input), context = std::move(context), done = std::move(done)]() mutable {
      try {
        tool->execute(std::move(input), std::move(context), done);
      } catch (const std::exception& e) {
        done(ToolDefect{e.what()});
      }
    };
    if (tool->threading == ToolThreading::Inline) return run();
    boost::asio::post(services.workers.pool(), std::move(run));
  }

  std::function<void(json)> progressSink() {
    return [weak = weak_from_this()](json update) {
      auto self = weak.lock();
      if (!self) return;
      std::lock_guard lock(self->progressMutex);
      if (self->finished || self->interrupted()) return;
      self->lastProgress = update;
      if (self->io.progress) self->io.progress(std::move(update));
    };
  }

  // The tool's `done`: once only; a tool that drops it without calling it is a defect, answered
  // rather than leaving the call hanging forever.
  ToolDone completionHandler() {
    struct Guard {
      std::shared_ptr<Call> call;
      std::atomic<bool> called{false};
      ~Guard() {
        if (!called) call->completed(ToolDefect{"the tool finished without a result"});
      }
    };
    auto guard = std::make_shared<Guard>();
    guard->call = shared_from_this();
    return [guard](ToolCompletion completion) {
      if (guard->called.exchange(true)) {
        spdlog::error("tool {} (call {}) finished twice; the second result is dropped", guard->call->tool->name,
                      guard->call->params.callID);
        return;
      }
      guard->call->completed(std::move(completion));
    };
  }

  void completed(ToolCompletion completion) {
    finishCallCheckpoint(checkpoint);
    onQueue([completion = std::move(completion)](Call& c) mutable {
      std::visit([&c](auto&& value) { c.settle(std::move(value)); }, std::move(completion));
    });
  }

  void settle(ToolDefect defect) { operationalFailure("tool \"" + tool->name + "\" failed: " + defect.message); }

  // A plain decline is no tool result: the runner learns that the person stopped this call.
  void settle(ToolDeclined declined) {
    spdlog::info("call {} (session {}): permission declined", params.callID, params.sessionID);
    deliver(RpcError{ErrorCode::PermissionDeclined, declined.message, {}});
  }

  void settle(ToolFailure failure) {
    std::optional<json> partial;
    {
      std::lock_guard lock(progressMutex);
      partial = failurePartial(lastProgress, failure.metadata);
    }
    outcome.partial = std::move(partial);
    fail(error_type::kFailure, failure.message, true);
  }

  void settle(ToolResult result) {
    // The output contract: declared ⇔ present, and valid against its schema.
    if (tool->outputSchema()) {
      if (!result.output) return fail(error_type::kFailure, "Tool did not return its declared output", true);
      outputSchema = tool->outputValidator();
      if (!outputSchema) return accept(std::move(result));  // a schema toold cannot enforce: unchecked
      return checkOutput(std::move(result));
    }
    if (result.output)
      return operationalFailure("tool \"" + tool->name + "\" returned output without an output schema");
    accept(std::move(result));
  }

  // A client-hosted tool's output is the client's data: checked like an input (see
  // kInlineValidationSteps).
  void checkOutput(ToolResult result) {
    auto checked = outputSchema->check(*result.output, inlineBudget());
    if (checked.status != CompiledSchema::Checked::Status::OverBudget)
      return outputChecked(std::move(result), std::move(checked));
    auto kept = std::make_shared<ToolResult>(std::move(result));
    boost::asio::post(services.workers.pool(), [self = shared_from_this(), kept] {
      if (self->interrupted()) return;
      auto checkedOutput = self->outputSchema->check(*kept->output, self->fullBudget());
      self->onQueue([kept, checkedOutput = std::move(checkedOutput)](Call& c) mutable {
        c.outputChecked(std::move(*kept), std::move(checkedOutput));
      });
    });
  }

  void outputChecked(ToolResult result, CompiledSchema::Checked checked) {
    using Status = CompiledSchema::Checked::Status;
    if (checked.status == Status::Cancelled) return;
    if (checked.status != Status::Valid)
      return fail(error_type::kFailure,
                  "Tool returned an invalid value for its output schema: " + joinIssues(checked.issues), true);
    accept(std::move(result));
  }

  void accept(ToolResult result) {
    try {
      outcome.content = normalizeContent(std::move(result.content), result.output);
    } catch (const ContentError& e) {
      return operationalFailure("tool \"" + tool->name + "\" returned invalid content: " + e.what());
    }
    if (!loopNote.empty()) outcome.content.push_back(json{{"type", "text"}, {"text", loopNote}});
    outcome.status = ToolOutcome::Status::Completed;
    outcome.output = std::move(result.output);
    if (result.metadata) {
      preBounded = result.metadata->is_object() && result.metadata->contains("truncated");
      keepMetadata(std::move(*result.metadata));
    }
    bound([](Call& c) { c.runAfterHooks(); });
  }

  void keepMetadata(json metadata) {
    if (auto problem = metadataProblem(metadata); !problem.empty()) {
      spdlog::warn("tool {} (call {}): {}; dropped", tool->name, params.callID, problem);
      outcome.metadata.reset();
      return;
    }
    outcome.metadata = std::move(metadata);
  }

  // Bounds the outcome's text, retaining the full text (inline when it is small, see
  // kInlineRetainBytes; else on a worker) when it is over the limits.
  template <class Next>
  void bound(Next next) {
    if (preBounded) return boundOutput(), next(*this);
    const TextMeasure size = contentSizeAtMost(outcome.content);
    if (size.bytes <= limits.maxBytes && size.lines <= limits.maxLines) return boundOutput(), next(*this);
    if (size.bytes <= kInlineRetainBytes) {
      try {
        applyBounded(cut());
      } catch (const StorageError& e) {
        return operationalFailure("could not save the full output of tool \"" + tool->name + "\": " + e.what());
      }
      boundOutput();
      return next(*this);
    }
    boost::asio::post(services.workers.pool(), [self = shared_from_this(), next = std::move(next)]() mutable {
      try {
        auto bounded = self->cut();
        self->onQueue([bounded = std::move(bounded), next = std::move(next)](Call& c) mutable {
          c.applyBounded(std::move(bounded));
          c.boundOutput();
          next(c);
        });
      } catch (const StorageError& e) {
        self->onQueue([message = std::string(e.what())](Call& c) {
          c.operationalFailure("could not save the full output of tool \"" + c.tool->name + "\": " + message);
        });
      }
    });
  }

  // The outcome's text cut to the limits, the full text saved; reads the outcome, changes nothing.
  BoundedContent cut() const {
    const bool mayDelegate = snapshot->find("task") != nullptr;
    auto bounded = boundContent(outcome.content, limits, [&](std::string_view text) { return services.outputs.retain(text); },
                                truncationHint(mayDelegate));
    if (bounded.truncated) startWithCutLine(bounded, mayDelegate);
    return bounded;
  }

  void applyBounded(BoundedContent bounded) {
    if (!bounded.truncated) return;
    outcome.content = std::move(bounded.content);
    outcome.truncated = true;
    if (bounded.outputPath) outcome.outputPaths.push_back(bounded.outputPath->string());
  }

  // The structured output within the text's budget, on the faces that ask for it (MCP's).
  void boundOutput() {
    if (!io.boundOutput || !outcome.output || !outcome.output->is_object()) return;
    const std::string saved = outcome.outputPaths.empty() ? std::string() : outcome.outputPaths.front();
    if (auto whole = boundStructuredOutput(*outcome.output, limits, saved, tool->outputSchema().has_value(),
                                           outputSchema.get(), fullBudget());
        !whole.empty())
      spdlog::warn("tool {} (call {}): its structured output is over the output budget and is sent whole ({})",
                   tool->name, params.callID, whole);
  }

  // A host that keeps only the head of an answer would lose the marker in the middle: when the
  // limits leave room for it, the preview is cut again to make room for a first line that says
  // the output was cut and where all of it is (the text is saved already, under the same path).
  void startWithCutLine(BoundedContent& bounded, bool mayDelegate) const {
    constexpr std::size_t kMinLines = 20, kMinBytes = 1024;
    if (limits.maxLines < kMinLines || limits.maxBytes < kMinBytes || !bounded.outputPath) return;
    const RetainedText saved{*bounded.outputPath, bounded.kept};
    const std::string first = cutFirstLine(saved);
    if (first.size() + 1 > limits.maxBytes / 4) return;
    const BoundingLimits rest{limits.maxLines - 1, limits.maxBytes - first.size() - 1};
    BoundedContent again = boundContent(outcome.content, rest, [&](std::string_view) { return saved; },
                                        truncationHint(mayDelegate));
    for (auto& item : again.content) {
      if (item.value("type", "") != "text") continue;
      item["text"] = first + "\n" + item["text"].get<std::string>();
      break;
    }
    bounded = std::move(again);
  }

  void runAfterHooks() {
    if (services.hooks.empty(HookPoint::After)) return finish();
    json event = identity();
    event["tool"] = tool->name;
    event["input"] = decodedInput;
    event["outcome"] = outcome;
    services.hooks.run(HookPoint::After, std::move(event), [self = shared_from_this()](HookReply reply) {
      self->onQueue([reply = std::move(reply)](Call& c) { c.applyAfterHooks(reply.event); });
    });
  }

  // What the after-hooks returned replaces the outcome, normalized and bounded again; a malformed
  // outcome from a hook is logged and ignored rather than failing a call that succeeded.
  void applyAfterHooks(const json& event) {
    auto it = event.find("outcome");
    if (it == event.end()) return finish();
    ToolOutcome changed = outcome;
    try {
      protocol::applyOutcomeJson(*it, changed);
      if (changed.completed()) changed.content = normalizeContent(std::move(changed.content), changed.output);
    } catch (const std::exception& e) {
      spdlog::warn("an after-hook returned an invalid outcome for call {}: {}; ignored", params.callID, e.what());
      return finish();
    }
    const bool contentChanged = changed.content != outcome.content;
    outcome = std::move(changed);
    if (!outcome.completed()) return finish();
    if (outcome.metadata) keepMetadata(std::move(*outcome.metadata));
    // Unchanged content was bounded already; changed content is measured again.
    preBounded = !contentChanged;
    bound([](Call& c) { c.finish(); });
  }

  void fail(std::string_view type, std::string message, bool afterHooks) {
    outcome.status = ToolOutcome::Status::Error;
    outcome.errorType = std::string(type);
    outcome.errorMessage = std::move(message);
    outcome.output.reset();
    outcome.content = json::array();
    outcome.metadata.reset();
    if (afterHooks && tool != nullptr) return runAfterHooks();
    finish();
  }

  void operationalFailure(std::string message) {
    spdlog::error("call {} (session {}): {}", params.callID, params.sessionID, message);
    deliver(RpcError{ErrorCode::InternalError, "Internal error: " + message, {}});
  }

  void finish() { deliver(std::move(outcome)); }

  void deliver(CallAnswer value) {
    recordAnswer(value);
    {
      std::lock_guard lock(progressMutex);
      if (finished || interrupted()) return;
      finished = true; // progress after this point would arrive after the answer: dropped
      if (auto* answered = std::get_if<ToolOutcome>(&value)) answered->notices = std::move(notices);
    }
    answer(std::move(value));
  }
};

} // namespace

CallPipeline::CallPipeline(Services services)
    : services_(std::move(services)), handover_(std::make_unique<CallHandover>(handoverThreads(), kMaxHandedOver)) {}

CallPipeline::~CallPipeline() = default;

void CallPipeline::call(std::shared_ptr<const Snapshot> snapshot, protocol::CallParams params, CallIo io,
                        std::function<void(CallAnswer)> answer) const {
  bool sameSessionAsLast = false;
  if (io.startElsewhere) {
    sameSessionAsLast = params.sessionID == lastSessionElsewhere_;
    if (!sameSessionAsLast) lastSessionElsewhere_ = params.sessionID;
  }
  auto call = std::make_shared<Call>(services_, std::move(snapshot), std::move(params), std::move(io), std::move(answer));
  call->start(*handover_, sameSessionAsLast);
}

} // namespace toold::core
