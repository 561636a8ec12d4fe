// The wire structs of the native tool methods (register, unregister, snapshot, release, call,
// hooks/subscribe) and of their answers, each with its JSON conversion beside it. Reading throws
// ParamsError naming the JSON path of the first problem.
#pragma once

#include "protocol/params_error.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace toold::protocol {

/// How a registered tool runs: the client runs it (`tool/execute`), or toold runs a command.
struct HandlerSpec {
  enum class Type { Client, Command };
  Type type = Type::Client;
  std::vector<std::string> argv;       ///< command: the program and its arguments
  std::optional<std::string> cwd;      ///< command: relative to the Location's directory
  std::optional<std::uint64_t> timeoutMs; ///< command: 0 or absent means none
};

struct ToolSpec {
  std::string description;
  json inputSchema = json::object();   ///< absent on the wire: {} (accepts anything)
  std::optional<json> outputSchema;
  std::optional<bool> codemode;
  std::optional<std::string> permission;
  bool mutates = false;
  std::optional<std::string> title;  ///< MCP's tool title, passed through to tools/list
  std::optional<json> annotations;   ///< MCP's tool annotations (an object), passed through
  HandlerSpec handler;
};

struct RegisterOptions {
  std::optional<std::string> ns; ///< `namespace` on the wire
  std::optional<bool> codemode;
};

struct RegisterParams {
  std::optional<std::string> scope;
  std::vector<std::pair<std::string, ToolSpec>> tools; ///< authored name → spec, in wire order
  RegisterOptions options;
};

struct RegisteredName {
  std::string authored;
  std::string name;
};

struct RegisterResult {
  std::string scope;
  std::vector<RegisteredName> tools;
};

struct PermissionRuleSpec {
  std::string action;
  std::string resource;
  std::string effect; ///< "allow", "deny" or "ask"
};

struct SnapshotParams {
  std::string sessionID;
  std::string agent;
  std::optional<std::string> model;
  std::vector<PermissionRuleSpec> rules;
  bool final = false;
  /// The provider profile the input schemas are shaped for ("anthropic", "openai", "google", …);
  /// absent: as registered.
  std::optional<std::string> provider;
  /// The agents the runner can delegate to (the `task` tool's list): [{name, description}].
  json agents = json::array();
  std::optional<bool> codemode; ///< Code Mode for this snapshot; absent: as the config says
  /// The `toolsHash` of definitions the runner already holds: when this snapshot's are the same,
  /// the answer leaves them out (a catalog of thousands of tools is megabytes each session).
  std::optional<std::string> knownToolsHash;
};

struct CallParams {
  std::string snapshot;
  std::string sessionID;
  std::string agent;
  std::string messageID;
  std::string callID;
  std::string name;
  json input;
  /// The runner asks for opencode's call repair: an unknown tool or an input that does not decode
  /// is answered through `invalid` (a completed outcome the model reads) instead of an error.
  bool repair = false;
};

RegisterParams parseRegisterParams(const json& params);
/// The same, moving the tools' schemas out of `params` instead of copying them.
RegisterParams parseRegisterParams(json&& params);
ToolSpec parseToolSpec(const json& spec, const std::string& path);
/// The same, moving the schemas and annotations out of `spec` instead of copying them.
ToolSpec parseToolSpec(json&& spec, const std::string& path);
std::vector<PermissionRuleSpec> parsePermissionRuleSpecs(const json& rules, const std::string& path);
/// The snapshot's `agents`: each {name: non-empty string, description?: string}.
json parseAgentSpecs(const json& agents, const std::string& path);
SnapshotParams parseSnapshotParams(const json& params);
/// Moves `input` out of `params`.
CallParams parseCallParams(json&& params);

void to_json(json& j, const RegisteredName& n);
void to_json(json& j, const RegisterResult& r);
void to_json(json& j, const PermissionRuleSpec& r);

} // namespace toold::protocol
