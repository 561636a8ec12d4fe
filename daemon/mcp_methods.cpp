#include "daemon/mcp_methods.h"

#include "core/tool_service.h"
#include "daemon/announced_outputs.h"
#include "daemon/client_log_sink.h"
#include "daemon/logging.h"
#include "daemon/mcp_call_result.h"
#include "daemon/mcp_progress.h"
#include "daemon/mcp_tool_listing.h"
#include "daemon/server.h"
#include "protocol/tool_messages.h"

#include <boost/asio/steady_timer.hpp>

#include <atomic>
#include <optional>
#include <charconv>

namespace toold::daemon {

namespace {

constexpr std::string_view kMetaSessionKey = "toold/sessionID";
// A call that sent no progress for `keepAlive` (--mcp-keep-alive) sends its newest message again:
// hosts that time a call out unless progress arrives (opencode: 60 s, reset by each notification)
// keep a silent command alive. Checked four times per period.
constexpr std::size_t kMaxSessionIdBytes = 256;
// The session of a host's agent other than the main one: "mcp/agent/<the host's agent id>".
constexpr std::string_view kImplicitSessionPrefix = "mcp/agent/";

// A cursor names the snapshot the listing started from and where the next page begins; a listing
// whose tools changed in between starts again rather than skip or repeat tools.
std::string makeCursor(const std::string& snapshot, std::size_t offset) {
  return snapshot + "@" + std::to_string(offset);
}

std::size_t readCursor(const std::string& cursor, const std::string& snapshot) {
  const auto at = cursor.rfind('@');
  std::size_t offset = 0;
  if (at != std::string::npos && cursor.compare(0, at, snapshot) == 0 && at == snapshot.size()) {
    const char* begin = cursor.data() + at + 1;
    const char* end = cursor.data() + cursor.size();
    auto [stop, ec] = std::from_chars(begin, end, offset);
    if (ec == std::errc{} && stop == end) return offset;
  }
  throw InvalidParams("cursor: \"" + cursor + "\" is not a cursor of the current tool list (it changed); list again");
}

// `_meta["toold/sessionID"]`: a session the call belongs to, instead of the connection's own.
std::optional<std::string> metaSession(const json& params) {
  const auto meta = params.find("_meta");
  if (meta == params.end() || !meta->is_object()) return std::nullopt;
  const auto session = meta->find(kMetaSessionKey);
  if (session == meta->end()) {
    // A host that says which of its agents calls (Claude Code's subagents: `claudecode/agentId`)
    // gets a session per agent, so a subagent neither sees nor stops the main agent's background
    // jobs, approvals and loop checks. The main agent's calls carry no agent id: session "mcp".
    const auto agent = meta->find("claudecode/agentId");
    if (agent == meta->end() || !agent->is_string() || agent->get_ref<const std::string&>().empty() ||
        agent->get_ref<const std::string&>().size() > kMaxSessionIdBytes)
      return std::nullopt;
    return std::string(kImplicitSessionPrefix) + agent->get<std::string>();
  }
  if (!session->is_string() || session->get_ref<const std::string&>().empty() ||
      session->get_ref<const std::string&>().size() > kMaxSessionIdBytes)
    throw InvalidParams("_meta." + std::string(kMetaSessionKey) + ": must be a non-empty string of at most " +
                        std::to_string(kMaxSessionIdBytes) + " bytes");
  return session->get<std::string>();
}

// The host's own id for the call, when its `_meta` carries one (Claude Code: `claudecode/toolUseId`;
// others: `callId`, `codex/callId`, `toolUseId`, `toolCallId`): permission forms, logs and the
// call's environment then name the call as the host shows it, not as toold counted it. A value
// that is not a short string is ignored, never a reason to refuse the call.
std::optional<std::string> hostCallId(const json& params) {
  static constexpr std::string_view kKeys[] = {"claudecode/toolUseId", "codex/callId", "callId", "toolUseId",
                                               "toolCallId"};
  const auto meta = params.find("_meta");
  if (meta == params.end() || !meta->is_object()) return std::nullopt;
  for (auto key : kKeys) {
    const auto id = meta->find(key);
    if (id != meta->end() && id->is_string() && !id->get_ref<const std::string&>().empty() &&
        id->get_ref<const std::string&>().size() <= kMaxSessionIdBytes)
      return id->get<std::string>();
  }
  return std::nullopt;
}

json declinedResult(const std::string& message) {
  return json{{"content", json::array({json{{"type", "text"}, {"text", message}}})}, {"isError", true}};
}

// Whether the call left a full output in the output folder, the MCP face's resources: cut by the
// pipeline, or cut by a tool that keeps its own log there (bash: `truncated` with its `logPath`).
bool retainedOutput(const protocol::ToolOutcome& outcome) {
  if (!outcome.outputPaths.empty()) return true;
  if (!outcome.metadata || !outcome.metadata->is_object()) return false;
  const auto truncated = outcome.metadata->find("truncated");
  const auto log = outcome.metadata->find("logPath");
  return truncated != outcome.metadata->end() && *truncated == true && log != outcome.metadata->end() &&
         log->is_string();
}

// Runs `step` now, or once the MCP servers still starting have settled (bounded by their start-up
// timeout). A step that throws InvalidParams after the wait answers it as the method would have.
void whenSettled(const SnapshotGate& settled, Reply reply, std::function<void(Reply&)> step) {
  auto guarded = [reply, step = std::move(step)]() mutable {
    try {
      step(reply);
    } catch (const InvalidParams& e) {
      reply.error(protocol::ErrorCode::InvalidParams, std::string("Invalid params: ") + e.what());
    }
  };
  if (!settled) return guarded();
  settled(std::move(guarded));
}

// The keep-alive of one call with a progress token: a timer that re-arms until the call answered
// or was cancelled (a cancelled call is never answered). The answer only sets `done` (the timer's
// handler may be running on another loop thread); the timer then ends at its next tick.
struct McpKeepAlive : std::enable_shared_from_this<McpKeepAlive> {
  McpKeepAlive(boost::asio::io_context& io, Server& to, std::shared_ptr<McpProgress> translator,
               core::CancellationToken token, std::chrono::milliseconds period)
      : timer(io), server(to), progress(std::move(translator)), cancellation(std::move(token)), quiet(period) {}

  void arm() {
    timer.expires_after(quiet / 4);
    timer.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
      if (ec || self->done.load() || self->cancellation.isCancelled()) return;
      if (auto params = self->progress->keepAlive(self->quiet))
        self->server.notify("notifications/progress", std::move(*params));
      self->arm();
    });
  }

  boost::asio::steady_timer timer;
  Server& server;
  std::shared_ptr<McpProgress> progress;
  core::CancellationToken cancellation;
  std::chrono::milliseconds quiet;
  std::atomic<bool> done{false};
};

// A `tools/call` of a tool the implicit snapshot has: its call params, progress and answer.
void startMcpCall(Server& server, core::ToolService& tools, std::shared_ptr<const core::Snapshot> snapshot,
                  std::atomic<std::uint64_t>& nextCall, const McpCallSettings& settings,
                  std::shared_ptr<AnnouncedOutputs> announced, json&& params, const RequestContext& context,
                  Reply reply) {
  protocol::ParamsReader reader(params, "");
  protocol::CallParams call;
  call.snapshot = snapshot->id;
  call.sessionID = snapshot->sessionID;
  call.agent = snapshot->agent;
  call.name = reader.requireString("name");
  // One connection is one session ("mcp") unless the host names one: a host that multiplexes
  // conversations over one connection keeps their jobs, approvals and loop checks apart.
  if (auto session = metaSession(params)) call.sessionID = std::move(*session);
  call.callID = hostCallId(params).value_or("mcp-call-" + std::to_string(nextCall.fetch_add(1)));
  call.messageID = call.callID;
  // Moved out, not copied: the params are this call's own, and nothing below reads the arguments.
  call.input = reader.has("arguments") ? std::move(params["arguments"]) : json::object();

  std::function<void(json)> progress;
  std::shared_ptr<McpKeepAlive> keepAlive;
  if (auto meta = params.find("_meta"); meta != params.end() && meta->is_object() && meta->contains("progressToken")) {
    auto translator = std::make_shared<McpProgress>((*meta)["progressToken"]);
    progress = [&server, translator](json update) {
      server.notify("notifications/progress", translator->next(update));
    };
    keepAlive =
        std::make_shared<McpKeepAlive>(tools.io(), server, translator, context.cancellation, settings.keepAlive);
    keepAlive->arm();
  }
  core::CallIo io{std::move(progress), context.cancellation};
  io.startElsewhere = context.moreFollow;
  io.foregroundLimit = settings.foregroundLimit;
  io.limits = settings.budget; // the MCP face's, which hosts keep whole (output_budgets.h)
  io.boundOutput = true;        // structuredContent: the model may read it in place of the text
  tools.call(std::move(snapshot), std::move(call), std::move(io),
             [reply, &server, keepAlive, announced](core::CallAnswer answer) {
               if (keepAlive) keepAlive->done = true;
               if (auto* outcome = std::get_if<protocol::ToolOutcome>(&answer)) {
                 // A cut output was retained: a new resource the host may list (unless its file
                 // was kept before for the same text). Told in the same write as the answer, so
                 // that the host wakes once for both.
                 if (retainedOutput(*outcome) && announced->anyNew(outcome->outputPaths)) {
                   const auto held = server.holdOutput();
                   server.notify("notifications/resources/list_changed", nullptr);
                   return reply.writeResult([outcome](std::string& out) { appendCallToolResult(out, *outcome); });
                 }
                 return reply.writeResult([outcome](std::string& out) { appendCallToolResult(out, *outcome); });
               }
               auto& error = std::get<protocol::RpcError>(answer);
               // A person's decline is for the model to read, as opencode gives it: a thrown
               // -32001 is what the SDK uses for its own timeout, and a host shows the model
               // nothing of it. The native `call` keeps -32001 for a runner that stops the turn.
               if (error.code == protocol::ErrorCode::PermissionDeclined) return reply(declinedResult(error.message));
               reply.error(std::move(error));
             });
}

} // namespace

void bindMcpMethods(Server& server, core::ToolService& tools, SnapshotGate settled, McpCallSettings settings) {
  MethodTable& methods = server.methods();
  server.declareCapability("tools", json{{"listChanged", true}});

  methods.request("tools/list", [&tools, settled](json&& params, const RequestContext&, Reply reply) {
    protocol::ParamsReader reader(params, "", /*nullIsEmpty=*/true);
    std::optional<std::string> cursor = reader.optionalString("cursor");
    // A host that ignores list_changed keeps what it was first shown: the first listing waits for
    // the configured MCP servers, as a native `snapshot` does.
    tools.startTracking();
    whenSettled(settled, std::move(reply), [&tools, cursor = std::move(cursor)](Reply& answer) {
      auto snapshot = tools.implicitSnapshot();
      std::size_t offset = 0;
      if (cursor) offset = readCursor(*cursor, snapshot->id);
      answer.writeResult([&](std::string& out) {
        appendToolsListPage(out, *snapshot, offset, kToolsListPageSize,
                            [&](std::size_t next) { return makeCursor(snapshot->id, next); });
      });
    });
  });

  auto nextCall = std::make_shared<std::atomic<std::uint64_t>>(1);
  auto announced = std::make_shared<AnnouncedOutputs>();
  methods.request("tools/call", [&server, &tools, settled, nextCall, settings, announced](json&& params,
                                                                              const RequestContext& context, Reply reply) {
    protocol::ParamsReader reader(params, "");
    std::string name = reader.requireString("name");
    tools.startTracking();
    auto snapshot = tools.implicitSnapshot();
    if (snapshot->find(name) == nullptr) {
      // A host that calls before it listed (or before a server it knows of was connected): the
      // tool may be one of an MCP server still starting. Only a name not found waits.
      auto retry = [&server, &tools, nextCall, settings, announced, params = std::move(params), context,
                    name](Reply& answer) mutable {
        auto settledSnapshot = tools.implicitSnapshot();
        if (settledSnapshot->find(name) == nullptr) throw InvalidParams("Unknown tool: " + name);
        startMcpCall(server, tools, std::move(settledSnapshot), *nextCall, settings, announced, std::move(params),
                     context, std::move(answer));
      };
      return whenSettled(settled, std::move(reply), std::move(retry));
    }
    startMcpCall(server, tools, std::move(snapshot), *nextCall, settings, announced, std::move(params), context,
                 std::move(reply));
  });
}

void bindMcpLogging(Server& server, std::shared_ptr<ClientLogSink> sink) {
  server.declareCapability("logging", json::object());
  server.methods().request("logging/setLevel", [sink](json&& params, const RequestContext&, Reply reply) {
    protocol::ParamsReader reader(params, "");
    const std::string name = reader.requireString("level");
    const auto level = levelFromMcp(name);
    if (!level)
      reader.fail("level", "must be one of debug, info, notice, warning, error, critical, alert, emergency");
    setLogSinkLevel(sink, *level);
    reply(json::object());
  });
}

} // namespace toold::daemon
