#include "daemon/mcp_methods.h"

#include "core/tool_service.h"
#include "daemon/client_log_sink.h"
#include "daemon/logging.h"
#include "daemon/mcp_call_result.h"
#include "daemon/mcp_progress.h"
#include "daemon/server.h"
#include "protocol/tool_messages.h"

#include <atomic>
#include <optional>
#include <charconv>

namespace toold::daemon {

namespace {

constexpr std::string_view kMetaSessionKey = "toold/sessionID";
constexpr std::size_t kMaxSessionIdBytes = 256;

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

// MCP requires an object schema for a tool's arguments (and, when given, for its structured
// output), and clients such as the official SDK refuse a whole listing over one that is not.
// Arguments are always an object over MCP, so a schema that states no type is listed as the
// object schema it then amounts to; a tool whose input must be something else cannot be called
// over MCP and is not listed. A non-object output schema is simply not advertised.
bool statesType(const json& schema) { return schema.is_object() && schema.contains("type"); }
bool isObjectSchema(const json& schema) { return schema.is_object() && schema.value("type", json()) == "object"; }

std::optional<json> mcpDefinition(const core::RegisteredTool& tool) {
  json listed = tool.definition;
  // MCP's title and behaviour hints: the built-ins' own, a registered tool's as it gave them.
  if (!tool.tool.title.empty()) listed["title"] = tool.tool.title;
  if (!tool.tool.annotations.empty()) listed["annotations"] = tool.tool.annotations;
  json& input = listed["inputSchema"];
  if (input.is_boolean() || (input.is_object() && !statesType(input))) {
    if (input.is_boolean()) input = json::object();
    input["type"] = "object";
  } else if (!isObjectSchema(input)) {
    return std::nullopt;
  }
  if (auto it = listed.find("outputSchema"); it != listed.end() && !isObjectSchema(*it)) listed.erase(it);
  return listed;
}

// `_meta["toold/sessionID"]`: a session the call belongs to, instead of the connection's own.
std::optional<std::string> metaSession(const json& params) {
  const auto meta = params.find("_meta");
  if (meta == params.end() || !meta->is_object()) return std::nullopt;
  const auto session = meta->find(kMetaSessionKey);
  if (session == meta->end()) return std::nullopt;
  if (!session->is_string() || session->get_ref<const std::string&>().empty() ||
      session->get_ref<const std::string&>().size() > kMaxSessionIdBytes)
    throw InvalidParams("_meta." + std::string(kMetaSessionKey) + ": must be a non-empty string of at most " +
                        std::to_string(kMaxSessionIdBytes) + " bytes");
  return session->get<std::string>();
}

json declinedResult(const std::string& message) {
  return json{{"content", json::array({json{{"type", "text"}, {"text", message}}})}, {"isError", true}};
}

} // namespace

void bindMcpMethods(Server& server, core::ToolService& tools, core::BoundingLimits budget) {
  MethodTable& methods = server.methods();
  server.declareCapability("tools", json{{"listChanged", true}});

  methods.request("tools/list", [&tools](json&& params, const RequestContext&, Reply reply) {
    protocol::ParamsReader reader(params, "", /*nullIsEmpty=*/true);
    auto snapshot = tools.implicitSnapshot();
    std::size_t offset = 0;
    if (auto cursor = reader.optionalString("cursor")) offset = readCursor(*cursor, snapshot->id);
    json list = json::array();
    std::size_t next = offset;
    for (; next < snapshot->tools.size() && list.size() < kToolsListPageSize; ++next)
      if (auto listed = mcpDefinition(*snapshot->tools[next])) list.push_back(std::move(*listed));
    json result{{"tools", std::move(list)}};
    if (next < snapshot->tools.size()) result["nextCursor"] = makeCursor(snapshot->id, next);
    reply(std::move(result));
  });

  auto nextCall = std::make_shared<std::atomic<std::uint64_t>>(1);
  methods.request("tools/call", [&server, &tools, nextCall, budget](json&& params, const RequestContext& context, Reply reply) {
    protocol::ParamsReader reader(params, "");
    auto snapshot = tools.implicitSnapshot();
    protocol::CallParams call;
    call.snapshot = snapshot->id;
    call.sessionID = snapshot->sessionID;
    call.agent = snapshot->agent;
    call.name = reader.requireString("name");
    if (snapshot->find(call.name) == nullptr) throw InvalidParams("Unknown tool: " + call.name);
    // One connection is one session ("mcp") unless the host names one: a host that multiplexes
    // conversations over one connection keeps their jobs, approvals and loop checks apart.
    if (auto session = metaSession(params)) call.sessionID = std::move(*session);
    call.callID = "mcp-call-" + std::to_string(nextCall->fetch_add(1));
    call.messageID = call.callID;
    call.input = reader.has("arguments") ? reader.require("arguments") : json::object();

    std::function<void(json)> progress;
    if (auto meta = params.find("_meta"); meta != params.end() && meta->is_object() && meta->contains("progressToken")) {
      auto translator = std::make_shared<McpProgress>((*meta)["progressToken"]);
      progress = [&server, translator](json update) {
        server.notify("notifications/progress", translator->next(update));
      };
    }
    core::CallIo io{std::move(progress), context.cancellation};
    io.startElsewhere = context.moreFollow;
    io.limits = budget; // the MCP face's, which hosts keep whole (output_budgets.h)
    tools.call(std::move(snapshot), std::move(call), std::move(io),
               [reply, &server](core::CallAnswer answer) {
                 if (auto* outcome = std::get_if<protocol::ToolOutcome>(&answer)) {
                   // A cut output was retained: a new resource the host may list.
                   if (!outcome->outputPaths.empty()) server.notify("notifications/resources/list_changed", nullptr);
                   return reply.writeResult([outcome](std::string& out) { appendCallToolResult(out, *outcome); });
                 }
                 auto& error = std::get<protocol::RpcError>(answer);
                 // A person's decline is for the model to read, as opencode gives it: a thrown
                 // -32001 is what the SDK uses for its own timeout, and a host shows the model
                 // nothing of it. The native `call` keeps -32001 for a runner that stops the turn.
                 if (error.code == protocol::ErrorCode::PermissionDeclined) return reply(declinedResult(error.message));
                 reply.error(std::move(error));
               });
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
