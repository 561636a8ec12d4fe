#include "protocol/tool_messages.h"

namespace toold::protocol {

namespace {

HandlerSpec parseHandler(const json& value, const std::string& path) {
  ParamsReader reader(value, path);
  HandlerSpec handler;
  const std::string type = reader.requireString("type");
  if (type == "client") {
    handler.type = HandlerSpec::Type::Client;
    return handler;
  }
  if (type != "command") reader.fail("type", "must be \"client\" or \"command\", not \"" + type + "\"");
  handler.type = HandlerSpec::Type::Command;
  const json& argv = reader.require("argv");
  if (!argv.is_array() || argv.empty()) reader.fail("argv", "must be a non-empty array of strings");
  for (std::size_t i = 0; i < argv.size(); ++i) {
    if (!argv[i].is_string()) reader.fail("argv", "[" + std::to_string(i) + "] must be a string");
    handler.argv.push_back(argv[i].get<std::string>());
  }
  if (handler.argv.front().empty()) reader.fail("argv", "[0] must not be empty");
  handler.cwd = reader.optionalString("cwd");
  handler.timeoutMs = reader.optionalUnsigned("timeoutMs");
  return handler;
}

std::string requireId(const ParamsReader& reader, std::string_view key) { return reader.requireString(key); }

} // namespace

namespace {

// `owned`, when given, is `value` itself, which the caller gives up: the schemas and annotations
// are moved out of it rather than copied (a record of thousands of tools copied them all).
ToolSpec parseSpec(const json& value, const std::string& path, json* owned) {
  ParamsReader reader(value, path);
  ToolSpec spec;
  spec.description = reader.requireString("description", /*allowEmpty=*/true);
  if (reader.has("inputSchema")) {
    const json& schema = reader.require("inputSchema");
    if (!schema.is_object() && !schema.is_boolean()) reader.fail("inputSchema", "must be a JSON Schema (an object)");
    spec.inputSchema = owned != nullptr ? std::move((*owned)["inputSchema"]) : schema;
  }
  if (reader.has("outputSchema")) {
    const json& schema = reader.require("outputSchema");
    if (!schema.is_object() && !schema.is_boolean()) reader.fail("outputSchema", "must be a JSON Schema (an object)");
    spec.outputSchema = owned != nullptr ? std::move((*owned)["outputSchema"]) : schema;
  }
  spec.codemode = reader.optionalBool("codemode");
  spec.permission = reader.optionalString("permission");
  if (spec.permission && spec.permission->empty()) reader.fail("permission", "must not be empty");
  spec.mutates = reader.optionalBool("mutates").value_or(false);
  spec.title = reader.optionalString("title");
  if (reader.has("annotations")) {
    const json& annotations = reader.require("annotations");
    if (!annotations.is_object()) reader.fail("annotations", "must be an object (MCP's tool annotations)");
    for (const char* hint : {"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"})
      if (annotations.contains(hint) && !annotations[hint].is_boolean())
        reader.fail("annotations", std::string(hint) + " must be a boolean");
    spec.annotations = annotations;
  }
  spec.handler = parseHandler(reader.require("handler"), reader.pathOf("handler"));
  return spec;
}

// The record's fields in order (scope, tools, each tool by `parseSpecs`, options), so that the
// first problem is the one reported whichever way the specs are read.
template <typename ParseSpecs>
RegisterParams parseRegister(const json& params, ParseSpecs parseSpecs) {
  ParamsReader reader(params, "");
  RegisterParams result;
  result.scope = reader.optionalString("scope");
  if (result.scope && result.scope->empty()) reader.fail("scope", "must not be empty");
  const json& tools = reader.require("tools");
  if (!tools.is_object()) reader.fail("tools", "must be an object of authored name → tool spec");
  if (tools.empty()) reader.fail("tools", "must name at least one tool");
  result.tools.reserve(tools.size());
  parseSpecs(result);
  if (reader.has("options")) {
    ParamsReader options(reader.require("options"), "options");
    result.options.ns = options.optionalString("namespace");
    result.options.codemode = options.optionalBool("codemode");
  }
  return result;
}

} // namespace

ToolSpec parseToolSpec(const json& value, const std::string& path) { return parseSpec(value, path, nullptr); }

ToolSpec parseToolSpec(json&& value, const std::string& path) { return parseSpec(value, path, &value); }

RegisterParams parseRegisterParams(const json& params) {
  return parseRegister(params, [&params](RegisterParams& result) {
    for (const auto& [name, spec] : params["tools"].items())
      result.tools.emplace_back(name, parseToolSpec(spec, "tools." + name));
  });
}

RegisterParams parseRegisterParams(json&& params) {
  return parseRegister(params, [&params](RegisterParams& result) {
    for (auto& [name, spec] : params["tools"].items())
      result.tools.emplace_back(name, parseSpec(spec, "tools." + name, &spec));
  });
}

std::vector<PermissionRuleSpec> parsePermissionRuleSpecs(const json& rules, const std::string& path) {
  if (!rules.is_array()) throw ParamsError(path + ": must be an array of {action, resource, effect}");
  std::vector<PermissionRuleSpec> result;
  for (std::size_t i = 0; i < rules.size(); ++i) {
    ParamsReader rule(rules[i], path + "[" + std::to_string(i) + "]");
    PermissionRuleSpec parsed{rule.requireString("action"), rule.requireString("resource"), rule.requireString("effect")};
    if (parsed.effect != "allow" && parsed.effect != "deny" && parsed.effect != "ask")
      rule.fail("effect", "must be \"allow\", \"deny\" or \"ask\"");
    result.push_back(std::move(parsed));
  }
  return result;
}

json parseAgentSpecs(const json& agents, const std::string& path) {
  if (!agents.is_array()) throw ParamsError(path + ": must be an array of {name, description?}");
  json result = json::array();
  for (std::size_t i = 0; i < agents.size(); ++i) {
    ParamsReader agent(agents[i], path + "[" + std::to_string(i) + "]");
    json entry{{"name", agent.requireString("name")}};
    if (auto description = agent.optionalString("description")) entry["description"] = *description;
    result.push_back(std::move(entry));
  }
  return result;
}

SnapshotParams parseSnapshotParams(const json& params) {
  ParamsReader reader(params, "");
  SnapshotParams result;
  result.sessionID = requireId(reader, "sessionID");
  result.agent = requireId(reader, "agent");
  result.model = reader.optionalString("model");
  if (reader.has("rules")) result.rules = parsePermissionRuleSpecs(reader.require("rules"), "rules");
  result.final = reader.optionalBool("final").value_or(false);
  result.provider = reader.optionalString("provider");
  if (reader.has("agents")) result.agents = parseAgentSpecs(reader.require("agents"), "agents");
  result.codemode = reader.optionalBool("codemode");
  result.knownToolsHash = reader.optionalString("knownToolsHash");
  return result;
}

CallParams parseCallParams(json&& params) {
  ParamsReader reader(params, "");
  CallParams result;
  result.snapshot = requireId(reader, "snapshot");
  result.sessionID = requireId(reader, "sessionID");
  result.agent = requireId(reader, "agent");
  result.messageID = requireId(reader, "messageID");
  result.callID = requireId(reader, "callID");
  result.name = reader.requireString("name", /*allowEmpty=*/true);
  // Any JSON is a tool input; its schema decides. Absent means null, which most schemas refuse.
  auto it = params.find("input");
  // MCP's `tools/call` says `arguments`: a runner that sends it here meant the input, and would
  // otherwise get the model-facing "invalid arguments … null" of an absent input.
  if (it == params.end() && reader.has("arguments"))
    reader.fail("arguments", "unknown parameter; the native call takes the tool's input as \"input\" "
                            "(\"arguments\" is MCP's tools/call)");
  if (it != params.end()) result.input = std::move(*it);
  result.repair = reader.optionalBool("repair").value_or(false);
  return result;
}

void to_json(json& j, const RegisteredName& n) { j = json{{"authored", n.authored}, {"name", n.name}}; }

void to_json(json& j, const RegisterResult& r) { j = json{{"scope", r.scope}, {"tools", r.tools}}; }

void to_json(json& j, const PermissionRuleSpec& r) {
  j = json{{"action", r.action}, {"resource", r.resource}, {"effect", r.effect}};
}

} // namespace toold::protocol
