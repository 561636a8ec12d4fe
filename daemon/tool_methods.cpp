#include "daemon/tool_methods.h"
#include "builtins/codemode_catalog.h"

#include "core/schema/schema_limits.h"
#include "core/tools/tool_name.h"
#include "core/tool_service.h"
#include "daemon/server.h"
#include "protocol/bounded_json.h"
#include "protocol/json_reader.h"
#include "protocol/json_writer.h"
#include "protocol/register_text.h"
#include "protocol/tool_messages.h"

#include <boost/asio/post.hpp>
#include <malloc.h>
#include <spdlog/spdlog.h>

#include <memory>
#include <mutex>

namespace toold::daemon {

namespace {

// Records of at least this many tools give their parse tree's memory back to the system.
constexpr std::size_t kLargeRecord = 256;

void refuseReservedScope(const std::string& scope) {
  if (scope.starts_with(core::kReservedScopePrefix))
    throw InvalidParams("scope: scopes named \"" + std::string(core::kReservedScopePrefix) + "…\" belong to toold");
}

// The client's hook subscriptions: each subscribed point is one hook that asks the client.
class ClientHooks {
public:
  ClientHooks(Server& server, core::ToolHooks& hooks) : server_(server), hooks_(hooks) {}

  void subscribe(const std::vector<core::HookPoint>& points) {
    std::lock_guard lock(mutex_);
    for (auto id : ids_) hooks_.remove(id);
    ids_.clear();
    for (auto point : points) ids_.push_back(hooks_.add(point, makeHook(point)));
  }

private:
  core::Hook makeHook(core::HookPoint point) {
    const std::string method = "hook/" + std::string(core::hookPointName(point));
    return [this, point, method](const json& event, std::function<void(core::HookReply)> done) {
      server_.callClient(method, event, [point, method, event, done = std::move(done)](protocol::Response&& response) {
        if (response.error) {
          // A before-hook may refuse a call; an after-hook cannot fail one that ran.
          if (point == core::HookPoint::Before) return done(core::HookReply{event, response.error->message});
          spdlog::warn("{} answered an error ({}); the outcome is kept", method, response.error->message);
          return done(core::HookReply{event, std::nullopt});
        }
        json changed = event;
        if (response.result && response.result->is_object()) {
          const char* keys[] = {"tool", "input", "outcome"};
          for (const char* key : keys)
            if (auto it = response.result->find(key); it != response.result->end()) changed[key] = *it;
        } else if (response.result && !response.result->is_null()) {
          spdlog::warn("{} answered {}, not an object or null; ignored", method, response.result->type_name());
        }
        done(core::HookReply{std::move(changed), std::nullopt});
      });
    };
  }

  Server& server_;
  core::ToolHooks& hooks_;
  std::mutex mutex_;
  std::vector<core::ToolHooks::Id> ids_;
};

// The schemas' size limits, checked on the params as they arrived: parsing them copies each
// schema recursively, which a schema nested 100,000 deep would not survive. The same limits hold
// again where schemas are compiled, whatever they come from.
void refuseOversizedSchemas(const json& params) {
  const auto tools = params.is_object() ? params.find("tools") : params.end();
  if (!params.is_object() || tools == params.end() || !tools->is_object()) return;  // the parser says why
  for (auto tool = tools->begin(); tool != tools->end(); ++tool) {
    if (!tool->is_object()) continue;
    for (const char* which : {"inputSchema", "outputSchema"}) {
      const auto schema = tool->find(which);
      if (schema == tool->end()) continue;
      try {
        core::checkSchemaSize(*schema);
      } catch (const core::SchemaError& e) {
        throw InvalidParams("Invalid " + std::string(which == std::string_view("inputSchema") ? "input" : "output") +
                            " schema for tool \"" + tool.key() + "\": " + e.what());
      }
    }
  }
}

// `register` read from its params' text, a tool at a time (protocol/register_text.h): each tool's
// spec tree is built, made into its registration and freed before the next, so a record of
// thousands of tools is never a tree at once. Nothing when the record is refused or not for this
// reader (nothing is registered then): the caller reads it the long way, which gives the refusal
// the words and the order of checks it always had.
std::optional<protocol::RegisterResult> registerFromText(core::ToolService& tools, std::string_view text) {
  try {
    auto record = protocol::RegisterParamsText::open(text);
    if (!record || (record->scope() && record->scope()->starts_with(core::kReservedScopePrefix))) return std::nullopt;
    bool read = false;
    auto result = tools.registerToolsOneByOne(record->scope(), record->options(), [&](const auto& each) {
      read = record->forEachTool([&](std::string&& name, protocol::ToolSpec&& spec) {
        for (const auto* schema : {&spec.inputSchema, spec.outputSchema ? &*spec.outputSchema : nullptr})
          if (schema != nullptr) core::checkSchemaSize(*schema);
        each(std::move(name), std::move(spec));
      });
      if (!read) throw protocol::ParamsError("tools: not readable one at a time");
    });
    return result;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// The answer to `snapshot`: its fields in nlohmann's order (sorted; `tools` and `toolsHash` sort
// last), the tool definitions written from the texts the registry keeps, so that a snapshot of
// thousands of tools copies text rather than building and serializing a document of them.
// Written as pieces (the definitions' texts as the registry keeps them: the snapshot, which holds
// them, is kept until they are written), so they are copied once, into the pipe, not first into
// one answer of megabytes. When the runner already holds these definitions (`knownToolsHash`),
// they are left out: only their hash and `toolsUnchanged`.
void answerSnapshot(const Reply& reply, const std::shared_ptr<const core::Snapshot>& taken,
                    builtins::CodemodeCatalogs& catalogs, const std::optional<std::string>& knownToolsHash) {
  const core::Snapshot& snapshot = *taken;
  json result{{"snapshot", snapshot.id}};
  if (snapshot.final) result["toolChoice"] = "none";
  if (!snapshot.provider.empty()) result["provider"] = snapshot.provider;
  if (auto codemode = catalogs.snapshotField(snapshot)) result["codemode"] = std::move(*codemode);
  const std::string toolsHash = snapshot.toolsHash();
  if (knownToolsHash == toolsHash) {
    result["toolsHash"] = toolsHash;
    result["toolsUnchanged"] = true;
    return reply(std::move(result));
  }
  const std::string tail = R"(,"toolsHash":")" + toolsHash + R"("})";
  protocol::PiecedText pieced;
  if (snapshot.definitionPieces(pieced.pieces)) {
    protocol::appendJson(pieced.head, result);
    pieced.head.pop_back();  // the closing brace: `tools` follows
    pieced.head += R"(,"tools":)";
    pieced.tail = tail;
    pieced.keep = taken;
    return reply.writeResultPieces(std::move(pieced));
  }
  reply.writeResult([&](std::string& out) {
    protocol::appendJson(out, result);
    out.pop_back();  // the closing brace: `tools` follows
    out += R"(,"tools":)";
    // Room for what closes the answer: the hash and the braces, the message's and the frame's newline.
    snapshot.appendDefinitions(out, tail.size() + 8);
    out += tail;
  });
}

} // namespace

void bindToolMethods(Server& server, core::ToolService& tools, SnapshotGate snapshotGate,
                     std::function<void()> codemodeSnapshot, std::optional<std::chrono::milliseconds> foregroundLimit) {
  MethodTable& methods = server.methods();

  methods.requestTakingText("register", [&tools](json&& params, const RequestContext& context, Reply reply) {
    if (!context.paramsText.empty()) {
      if (auto result = registerFromText(tools, context.paramsText)) {
        const bool large = result->tools.size() >= kLargeRecord;
        reply(json(*result));
        if (large) boost::asio::post(tools.io(), [] { malloc_trim(0); });
        return;
      }
      // Refused, or not what the text reader takes: the long way, whose refusals keep their words.
      params = protocol::parseJsonFast(context.paramsText, protocol::kMaxJsonDepth - 1).value_or(json::object());
    }
    refuseOversizedSchemas(params);
    auto parsed = protocol::parseRegisterParams(std::move(params));
    if (parsed.scope) refuseReservedScope(*parsed.scope);
    const bool large = parsed.tools.size() >= kLargeRecord;
    try {
      reply(json(tools.registerTools(std::move(parsed))));
    } catch (const core::RegistrationError& e) {
      throw InvalidParams(e.what());
    }
    // A large record's parse tree (about 5 KiB a tool) is freed once this handler returns, in
    // pieces between the registrations kept, which the allocator keeps resident: given back to
    // the system after it (10,000 tools in one record: 11.4 KiB a tool stayed resident without
    // this, 6.8 KiB with it).
    if (large) boost::asio::post(tools.io(), [] { malloc_trim(0); });
  });

  methods.request("unregister", [&tools](json&& params, const RequestContext&, Reply reply) {
    protocol::ParamsReader reader(params, "");
    const std::string scope = reader.requireString("scope");
    refuseReservedScope(scope);
    reply(json{{"closed", tools.unregister(scope)}});
  });

  // What each session was last shown of the Code Mode catalog, for the next snapshot's delta.
  auto catalogs = std::make_shared<builtins::CodemodeCatalogs>();
  // Taken now, or once the MCP servers still starting are settled; the reply says why it failed.
  auto take = [&tools, catalogs, codemodeSnapshot](const protocol::SnapshotParams& parsed, Reply& reply) {
    std::shared_ptr<const core::Snapshot> snapshot;
    try {
      snapshot = tools.snapshot(parsed);
    } catch (const std::invalid_argument& e) {
      return reply.error(protocol::ErrorCode::InvalidParams, std::string("Invalid params: ") + e.what()); // an unknown provider
    } catch (const std::exception& e) {
      return reply.error(protocol::ErrorCode::InternalError, std::string("snapshot failed: ") + e.what());
    }
    answerSnapshot(reply, snapshot, *catalogs, parsed.knownToolsHash);
    if (codemodeSnapshot && snapshot->codemode && snapshot->inventory && !snapshot->inventory->tools.empty())
      boost::asio::post(tools.io(), codemodeSnapshot);
  };
  methods.request("snapshot", [snapshotGate, take](json&& params, const RequestContext&, Reply reply) {
    auto parsed = protocol::parseSnapshotParams(params);
    if (!snapshotGate) return take(parsed, reply);
    // MCP servers still starting are waited for, so the first snapshot has their tools.
    snapshotGate([take, parsed = std::move(parsed), reply]() mutable { take(parsed, reply); });
  });

  methods.request("release", [&tools](json&& params, const RequestContext&, Reply reply) {
    protocol::ParamsReader reader(params, "");
    reply(json{{"released", tools.release(reader.requireString("snapshot"))}});
  });

  // The runner's session is over: toold stops what the session left running (background jobs).
  methods.request("session/end", [&tools](json&& params, const RequestContext&, Reply reply) {
    protocol::ParamsReader reader(params, "");
    tools.endSession(reader.requireString("sessionID"));
    reply(json::object());
  });

  methods.request("call", [&server, &tools, foregroundLimit](json&& params, const RequestContext& context, Reply reply) {
    auto call = protocol::parseCallParams(std::move(params));
    auto snapshot = tools.findSnapshot(call.snapshot);
    if (!snapshot)
      throw InvalidParams("snapshot: no snapshot \"" + call.snapshot +
                          "\" (never taken, released, or evicted as least recently used); take a new one");
    if (snapshot->sessionID != call.sessionID)
      throw InvalidParams("sessionID: snapshot \"" + call.snapshot + "\" was taken for session \"" +
                          snapshot->sessionID + "\", not \"" + call.sessionID + "\"");
    // The ids are kept as strings and put into JSON only when a tool reports progress: most don't.
    core::CallIo io{[&server, session = call.sessionID, message = call.messageID, id = call.callID](json update) {
                      server.notify("tool/progress", json{{"sessionID", session},
                                                          {"messageID", message},
                                                          {"callID", id},
                                                          {"update", std::move(update)}});
                    },
                    context.cancellation};
    io.startElsewhere = context.moreFollow;
    io.foregroundLimit = foregroundLimit;
    tools.call(std::move(snapshot), std::move(call), std::move(io), [reply](core::CallAnswer answer) {
      if (const auto* outcome = std::get_if<protocol::ToolOutcome>(&answer))
        return reply.writeResult([outcome](std::string& out) { protocol::appendOutcomeJson(out, *outcome); });
      reply.error(std::get<protocol::RpcError>(answer));
    });
  });

  auto clientHooks = std::make_shared<ClientHooks>(server, tools.hooks());
  methods.request("hooks/subscribe", [clientHooks](json&& params, const RequestContext&, Reply reply) {
    protocol::ParamsReader reader(params, "");
    const json& events = reader.require("events");
    if (!events.is_array()) reader.fail("events", "must be an array of hook names");
    std::vector<core::HookPoint> points;
    for (std::size_t i = 0; i < events.size(); ++i) {
      auto point = events[i].is_string() ? core::parseHookPoint(events[i].get<std::string>()) : std::nullopt;
      if (!point)
        throw InvalidParams("events[" + std::to_string(i) +
                            "]: must be \"tool.execute.before\" or \"tool.execute.after\"");
      if (std::find(points.begin(), points.end(), *point) == points.end()) points.push_back(*point);
    }
    clientHooks->subscribe(points);
    json names = json::array();
    for (auto point : points) names.push_back(core::hookPointName(point));
    reply(json{{"events", names}});
  });
}

} // namespace toold::daemon
