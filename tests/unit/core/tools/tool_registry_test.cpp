#include "core/schema/schema_cache.h"
#include "core/tools/tool_name.h"
#include "core/tools/snapshot.h"
#include "core/tools/tool_registry.h"
#include "protocol/json_writer.h"

#include <catch2/catch.hpp>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <sstream>

using namespace toold::core;
namespace protocol = toold::protocol;

namespace {

Tool toolSaying(std::string description) {
  Tool tool;
  tool.description = std::move(description);
  tool.execute = [](json, ToolContext, ToolDone done) { done(ToolResult{}); };
  return tool;
}

std::vector<std::pair<std::string, Tool>> record(std::initializer_list<std::pair<const char*, const char*>> tools) {
  std::vector<std::pair<std::string, Tool>> result;
  for (auto [name, description] : tools) result.emplace_back(name, toolSaying(description));
  return result;
}

std::map<std::string, std::string> descriptions(const ToolRegistry& registry) {
  std::map<std::string, std::string> result;
  for (const auto& tool : registry.effective()) result[tool->name] = tool->description();
  return result;
}

} // namespace

TEST_CASE("registry: the latest active registration of a name wins", "[registry]") {
  SchemaCache schemas;
  ToolRegistry registry(schemas);
  registry.add("base", record({{"echo", "base"}, {"other", "other"}}), {});
  registry.add("overlay", record({{"echo", "overlay"}}), {});
  CHECK(descriptions(registry) == std::map<std::string, std::string>{{"echo", "overlay"}, {"other", "other"}});
  // Names that become equal once normalized collide too.
  registry.add("dots", record({{"echo.tool", "dotted"}}), {});
  registry.add("underscores", record({{"echo_tool", "underscored"}}), {});
  CHECK(descriptions(registry).at("echo_tool") == "underscored");
}

TEST_CASE("registry: closing a scope removes only its registrations and reveals the next-latest", "[registry]") {
  SchemaCache schemas;
  ToolRegistry registry(schemas);
  registry.add("a", record({{"echo", "a"}}), {});
  registry.add("b", record({{"echo", "b"}, {"only_b", "b"}}), {});
  registry.add("c", record({{"echo", "c"}}), {});
  CHECK(registry.close("b")); // not the winner: nothing visible changes for echo
  CHECK(descriptions(registry) == std::map<std::string, std::string>{{"echo", "c"}});
  CHECK(registry.close("c"));
  CHECK(descriptions(registry) == std::map<std::string, std::string>{{"echo", "a"}});
  CHECK_FALSE(registry.close("c")); // twice is harmless
  CHECK(registry.close("a"));
  CHECK(registry.effective().empty());
}

TEST_CASE("registry: replacing a scope swaps its tools in one step", "[registry]") {
  SchemaCache schemas;
  ToolRegistry registry(schemas);
  registry.add("other", record({{"kept", "other"}}), {});
  registry.add("mcp:s", record({{"s_a", "old a"}, {"s_b", "old b"}}), {});
  int changes = 0;
  registry.setChangeListener([&] { ++changes; });
  registry.replace("mcp:s", record({{"s_b", "new b"}, {"s_c", "new c"}}), {});
  CHECK(changes == 1); // one change, never a moment without the scope's tools
  CHECK(descriptions(registry) ==
        std::map<std::string, std::string>{{"kept", "other"}, {"s_b", "new b"}, {"s_c", "new c"}});
  registry.replace("mcp:s", {}, {});
  CHECK(descriptions(registry) == std::map<std::string, std::string>{{"kept", "other"}});
  CHECK_FALSE(registry.hasScope("mcp:s"));
}

TEST_CASE("registry: a registration is a copy of what the caller passed", "[registry]") {
  SchemaCache schemas;
  ToolRegistry registry(schemas);
  auto tools = record({{"echo", "original"}});
  registry.add("s", tools, {});
  tools[0].second.description = "changed by the caller later";
  CHECK(registry.effective().front()->description() == "original");
}

TEST_CASE("registry: a record is registered whole or not at all", "[registry]") {
  SchemaCache schemas;
  ToolRegistry registry(schemas);
  auto tools = record({{"good", "fine"}, {"bad", "broken schema"}});
  tools[1].second.inputSchema = json{{"type", "object"}, {"properties", {{"x", {{"$ref", "#/$defs/missing"}}}}}};
  CHECK_THROWS_WITH(registry.add("s", tools, {}), Catch::Contains("Invalid input schema for tool \"bad\""));
  CHECK(registry.effective().empty());
  CHECK_FALSE(registry.hasScope("s"));

  CHECK_THROWS_WITH(registry.add("s", record({{"fine", "x"}, {"execute", "y"}}), {}),
                    Catch::Contains("reserved for Code Mode"));
  CHECK_THROWS_WITH(registry.add("s", record({{"x", "y"}}), RegistrationOptions{"slack..admin", std::nullopt}),
                    Catch::Contains("Invalid tool namespace"));
  CHECK(registry.effective().empty());
}

TEST_CASE("registry: effective names, sorted in code-unit order, with namespace and codemode", "[registry]") {
  SchemaCache schemas;
  ToolRegistry registry(schemas);
  auto names = registry.add("s", record({{"b", ""}, {"a", ""}, {"_x", ""}, {"-y", ""}, {"Z", ""}, {"1", ""}}), {});
  REQUIRE(names.size() == 6);
  std::vector<std::string> order;
  for (const auto& tool : registry.effective()) order.push_back(tool->name);
  CHECK(order == std::vector<std::string>{"-y", "1", "Z", "_x", "a", "b"});

  auto namespaced = registry.add("t", record({{"echo", ""}}), RegistrationOptions{"acme.tools", false});
  CHECK(namespaced.front() == std::pair<std::string, std::string>{"echo", "acme_tools_echo"});
  for (const auto& tool : registry.effective())
    if (tool->name == "acme_tools_echo") {
      CHECK_FALSE(tool->codemode);
      CHECK(tool->authoredName() == "echo");
      CHECK(tool->ns() == "acme.tools");
      CHECK(tool->scope() == "t");
    }
}

TEST_CASE("registry: the revision and the listener follow changes of the effective set only", "[registry]") {
  SchemaCache schemas;
  ToolRegistry registry(schemas);
  int changes = 0;
  registry.setChangeListener([&] { ++changes; });
  registry.add("a", record({{"echo", "a"}}), {});
  CHECK(changes == 1);
  const auto revision = registry.revision();
  CHECK_FALSE(registry.close("nothing"));
  CHECK(changes == 1);
  CHECK(registry.revision() == revision);
  registry.add("b", record({{"echo", "b"}}), {});
  CHECK(changes == 2);
  CHECK(registry.revision() > revision);
}

TEST_CASE("registry: a schema's note is logged once, when its tool is registered, not when it is prepared",
          "[registry]") {
  // A record refused after its first tools were prepared is read again the long way: logging at
  // preparation said it twice, for a tool that was never registered.
  std::ostringstream log;
  auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(log);
  auto& sinks = spdlog::default_logger()->sinks();
  sinks.push_back(sink);
  const auto level = spdlog::default_logger()->level();
  spdlog::default_logger()->set_level(spdlog::level::warn);
  SchemaCache schemas;
  ToolRegistry registry(schemas);
  auto tools = record({{"newer", "2020-12 keywords"}});
  tools[0].second.inputSchema = json{{"type", "object"}, {"unevaluatedProperties", false}};
  (void)registry.prepareOne("newer", tools[0].second, {});
  const std::string afterPreparing = log.str();
  registry.add("s", tools, {});
  const std::string afterRegistering = log.str();
  sinks.erase(std::find(sinks.begin(), sinks.end(), sink));
  spdlog::default_logger()->set_level(level);
  CHECK(afterPreparing.empty());
  const std::string said = "tool \"newer\": The input is not validated by toold";
  const auto first = afterRegistering.find(said);
  CHECK(first != std::string::npos);
  CHECK(afterRegistering.find(said, first + 1) == std::string::npos);
}

TEST_CASE("registry: a schema toold cannot enforce keeps the tool, unchecked, with a note", "[registry]") {
  SchemaCache schemas;
  ToolRegistry registry(schemas);
  auto tools = record({{"newer", "2020-12 keywords"}, {"remote", "a remote $ref"}});
  tools[0].second.inputSchema = json{{"type", "object"}, {"unevaluatedProperties", false}};
  tools[0].second.outputSchema = json{{"type", "object"}, {"minContains", 1}};
  tools[1].second.inputSchema = json{{"$ref", "https://example.com/schema.json"}};
  registry.add("s", tools, {});
  const auto effective = registry.effective();
  REQUIRE(effective.size() == 2);
  const auto& newer = *effective[0];
  CHECK(newer.inputValidator() == nullptr);
  CHECK(newer.outputValidator() == nullptr);
  CHECK_THAT(newer.schemaNote(), Catch::Contains("The input is not validated by toold: Unsupported keyword \"unevaluatedProperties\""));
  CHECK_THAT(newer.schemaNote(), Catch::Contains("The output is not validated by toold: Unsupported keyword \"minContains\""));
  CHECK(newer.definition().at("schemaNote") == newer.schemaNote());
  CHECK_THAT(effective[1]->schemaNote(), Catch::Contains("Unsupported \"$ref\""));

  // Limits still refuse: they protect the daemon, not the tool.
  json deep = json::object();
  for (int i = 0; i < 200; ++i) deep = json{{"type", "object"}, {"properties", {{"a", deep}}}};
  auto tooDeep = record({{"deep", "nested too far"}});
  tooDeep[0].second.inputSchema = deep;
  CHECK_THROWS_WITH(registry.add("t", tooDeep, {}), Catch::Contains("Invalid input schema for tool \"deep\""));
  // A plain valid schema has no note.
  registry.add("u", record({{"plain", "ok"}}), {});
  for (const auto& tool : registry.effective())
    if (tool->name == "plain") CHECK_FALSE(tool->definition().contains("schemaNote"));
}

TEST_CASE("registry: a plain schema is compiled at its tool's first use, any other at registration", "[registry]") {
  SchemaCache schemas;
  ToolRegistry registry(schemas);
  auto tools = record({{"plain", "five properties"}, {"patterned", "a pattern"}});
  tools[0].second.inputSchema = json::parse(R"({"type": "object", "additionalProperties": false, "required": ["id"],
      "properties": {"id": {"type": "string", "description": "which"}, "limit": {"type": "integer", "minimum": 1},
                     "order": {"enum": ["newest", "oldest"]}, "tags": {"type": "array", "items": {"type": "string"}},
                     "all": {"type": "boolean", "default": false}}})");
  tools[1].second.inputSchema = json{{"type", "object"}, {"properties", {{"id", {{"type", "string"}, {"pattern", "^a"}}}}}};
  registry.add("s", tools, {});
  const auto effective = registry.effective();
  REQUIRE(effective.size() == 2);
  const auto& patterned = *effective[0];
  const auto& plain = *effective[1];
  CHECK(patterned.input->compiled());
  CHECK_FALSE(plain.input->compiled());
  CHECK(schemas.size() == 1);  // only the one that was not certain
  // The input schema is kept once, in the definition's text, exactly as registered.
  // A plain tool (no namespace, authored name its effective one, no output schema, title, …) holds
  // no extras block at all.
  CHECK(plain.extras == nullptr);
  CHECK(plain.authoredName() == "plain");
  CHECK(plain.scope() == "s");
  CHECK(plain.inputSchema() == tools[0].second.inputSchema);
  CHECK(*plain.shown == protocol::writeJson(json{{"name", "plain"}, {"description", "five properties"},
                                                 {"inputSchema", tools[0].second.inputSchema}}));
  // The first use compiles it, and it validates as an eagerly compiled one would.
  const auto validator = plain.inputValidator();
  REQUIRE(validator != nullptr);
  CHECK(plain.input->compiled());
  CHECK(plain.inputValidator() == validator);  // once
  CHECK(validator->validate(json{{"id", "x"}, {"limit", 2}}).empty());
  CHECK_FALSE(validator->validate(json{{"id", "x"}, {"limit", 0}}).empty());
  CHECK_FALSE(validator->validate(json{{"limit", 2}}).empty());

  // A schema that is not certain is still judged, and refused, at registration.
  auto broken = record({{"broken", "a type that is none"}});
  broken[0].second.inputSchema = json{{"type", "object"}, {"properties", {{"a", {{"type", "objekt"}}}}}};
  CHECK_THROWS_WITH(registry.add("t", broken, {}), Catch::Contains("Invalid input schema for tool \"broken\""));
}

TEST_CASE("registry: what effective() returned does not change with later registrations", "[registry]") {
  SchemaCache schemas;
  ToolRegistry registry(schemas);
  registry.add("a", record({{"echo", "first"}, {"other", "other"}}), {});
  const auto taken = registry.effective();
  const std::string shown = *taken[0]->shown;
  registry.add("b", record({{"echo", "second"}, {"new", "new"}}), {});
  registry.close("a");
  REQUIRE(taken.size() == 2);
  CHECK(taken[0]->description() == "first");
  CHECK(*taken[0]->shown == shown);
  CHECK(descriptions(registry) == std::map<std::string, std::string>{{"echo", "second"}, {"new", "new"}});
  // Many records: each adds its names, the latest registration of a name still wins.
  for (int i = 0; i < 50; ++i) registry.add("many-" + std::to_string(i), record({{"echo", "many"}}), {});
  registry.add("last", record({{"echo", "last"}}), {});
  CHECK(descriptions(registry).at("echo") == "last");
  CHECK(registry.close("last"));
  CHECK(descriptions(registry).at("echo") == "many");
}

TEST_CASE("registry: a snapshot shares the registrations and keeps them through later changes", "[registry]") {
  SchemaCache schemas;
  ToolRegistry registry(schemas);
  auto tools = record({{"echo", "first"}, {"other", "other"}});
  tools[0].second.inputSchema = json{{"type", "object"}, {"properties", {{"text", {{"type", "string"}}}}}};
  registry.add("a", tools, {});
  protocol::SnapshotParams params;
  params.sessionID = "s";
  params.agent = "build";
  const auto set = registry.effectiveSet();
  CHECK(registry.effectiveSet() == set);  // built once per change, not per snapshot
  const auto snapshot = takeSnapshot("snapshot-1", *set, params, {}, SnapshotEnvironment{}, SnapshotCodemode{});
  REQUIRE(snapshot->tools.size() == 2);
  CHECK(snapshot->tools[0].get() == (*set)[0].get());  // the registration itself, not a copy
  // The answer's text is the definitions' kept texts, and reads as the definitions do.
  std::string text;
  snapshot->appendDefinitions(text);
  CHECK(json::parse(text) == snapshot->definitions());
  CHECK(snapshot->definitions()[0] == json{{"name", "echo"}, {"description", "first"},
                                           {"inputSchema", tools[0].second.inputSchema}});

  registry.add("b", record({{"echo", "second"}}), {});
  registry.close("a");
  CHECK(registry.effectiveSet() != set);
  std::string after;
  snapshot->appendDefinitions(after);
  CHECK(after == text);
  CHECK(snapshot->find("echo")->description() == "first");
  CHECK(snapshot->find("other") != nullptr);
}

TEST_CASE("snapshot: toolsHash names the definitions shown, whatever the session", "[registry]") {
  SchemaCache schemas;
  ToolRegistry registry(schemas);
  registry.add("a", record({{"echo", "first"}, {"other", "other"}}), {});
  protocol::SnapshotParams params;
  params.sessionID = "s";
  params.agent = "build";
  auto take = [&](const protocol::SnapshotParams& p) {
    return takeSnapshot("snapshot", *registry.effectiveSet(), p, {}, SnapshotEnvironment{}, SnapshotCodemode{});
  };
  const std::string hash = take(params)->toolsHash();
  CHECK(hash.size() == 32);
  CHECK(hash.find_first_not_of("0123456789abcdef") == std::string::npos);
  // Another session, another agent, final: the same definitions, the same hash.
  auto other = params;
  other.sessionID = "t";
  other.agent = "plan";
  other.final = true;
  CHECK(take(other)->toolsHash() == hash);
  // A tool left out, a description changed: another hash.
  auto denying = params;
  denying.rules.push_back(protocol::PermissionRuleSpec{"other", "*", "deny"});
  CHECK(take(denying)->toolsHash() != hash);
  registry.add("b", record({{"echo", "second"}}), {});
  const std::string changed = take(params)->toolsHash();
  CHECK(changed != hash);
  // Back as it was: the hash is the text's, not the registration's.
  registry.close("b");
  CHECK(take(params)->toolsHash() == hash);
}
