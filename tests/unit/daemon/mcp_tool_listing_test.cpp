#include "daemon/mcp_tool_listing.h"

#include "core/schema/schema_cache.h"
#include "core/tools/snapshot.h"
#include "core/tools/tool_registry.h"
#include "protocol/json_writer.h"

#include <catch2/catch.hpp>

using namespace toold::core;
using toold::daemon::appendMcpDefinition;
using toold::daemon::appendToolsListPage;
using toold::daemon::mcpDefinition;
namespace protocol = toold::protocol;

namespace {

const json kObjectSchema = json::parse(R"({"type":"object","properties":{"q":{"type":"string","description":"é \"x\""}}})");

Tool toolWith(std::string description, json input) {
  Tool tool;
  tool.description = std::move(description);
  tool.inputSchema = std::move(input);
  tool.execute = [](json, ToolContext, ToolDone done) { done(ToolResult{}); };
  return tool;
}

// Tools whose listing is written from their text, and tools whose schemas MCP needs changed.
std::vector<std::pair<std::string, Tool>> mixedRecord() {
  std::vector<std::pair<std::string, Tool>> tools;
  tools.emplace_back("plain", toolWith("Looks things up.", kObjectSchema));
  // Escapes, control characters, non-ASCII and a character outside the BMP, in every field shown.
  Tool escaped = toolWith("naïve \"quoted\" \\ back\nslash \t tab \x01 ctl — 🎉 \u2028", kObjectSchema);
  escaped.title = "Tïtle \"with\" quotes\n";
  escaped.annotations = json{{"readOnlyHint", true}, {"openWorldHint", false}};
  escaped.outputSchema = json::parse(R"({"type":"object","properties":{"ok":{"type":"boolean"}}})");
  tools.emplace_back("escaped", std::move(escaped));
  tools.emplace_back("untyped", toolWith("states no type", json{{"properties", json::object()}}));
  tools.emplace_back("boolean", toolWith("takes anything", true));
  tools.emplace_back("stringly", toolWith("takes a string", json{{"type", "string"}}));
  Tool arrayOut = toolWith("answers an array", kObjectSchema);
  arrayOut.outputSchema = json{{"type", "array"}};
  tools.emplace_back("array_out", std::move(arrayOut));
  return tools;
}

std::shared_ptr<const Snapshot> snapshotOf(ToolRegistry& registry) {
  protocol::SnapshotParams params;
  params.sessionID = "s";
  params.agent = "build";
  return takeSnapshot("snapshot-1", *registry.effectiveSet(), params, {}, SnapshotEnvironment{}, SnapshotCodemode{});
}

} // namespace

TEST_CASE("tools/list: a listing written from the kept text is the document's, byte for byte", "[mcp][registry]") {
  SchemaCache schemas;
  ToolRegistry registry(schemas);
  registry.add("a", mixedRecord(), {});
  const auto snapshot = snapshotOf(registry);
  std::map<std::string, bool> fromText;
  for (const auto& tool : snapshot->tools) {
    std::string text = "prefix";
    const bool written = appendMcpDefinition(text, *tool);
    fromText[tool->name] = written;
    const auto document = mcpDefinition(*tool);
    if (!written) {
      CHECK(text == "prefix");  // untouched: the caller lists the document instead
      continue;
    }
    REQUIRE(document);
    CHECK(text == "prefix" + protocol::writeJson(*document));
    CHECK(json::parse(text.substr(6)) == *document);
  }
  // Only schemas MCP takes as they are go the short way; the others keep their fix-ups.
  CHECK(fromText == std::map<std::string, bool>{{"array_out", false}, {"boolean", false}, {"escaped", true},
                                                {"plain", true}, {"stringly", false}, {"untyped", false}});
  CHECK((*mcpDefinition(*snapshot->find("untyped")))["inputSchema"]["type"] == "object");
  CHECK_FALSE(mcpDefinition(*snapshot->find("stringly")));
}

TEST_CASE("tools/list: a page is the documents of its tools, with the cursor of the next", "[mcp][registry]") {
  SchemaCache schemas;
  ToolRegistry registry(schemas);
  registry.add("a", mixedRecord(), {});
  const auto snapshot = snapshotOf(registry);
  auto cursor = [](std::size_t next) { return "at-" + std::to_string(next); };
  // Sorted: array_out, boolean, escaped, plain, stringly, untyped. `stringly` is not listed.
  auto expected = [&](std::size_t from, std::size_t to) {
    json tools = json::array();
    for (std::size_t i = from; i < to; ++i)
      if (auto document = mcpDefinition(*snapshot->tools[i])) tools.push_back(std::move(*document));
    return tools;
  };
  std::string first;
  appendToolsListPage(first, *snapshot, 0, 3, cursor);
  CHECK(first == protocol::writeJson(json{{"nextCursor", "at-3"}, {"tools", expected(0, 3)}}));
  std::string last;
  appendToolsListPage(last, *snapshot, 3, 3, cursor);
  // Three listed past `stringly`, which is skipped: the page reaches the end, no cursor.
  CHECK(last == protocol::writeJson(json{{"tools", expected(3, 6)}}));
  CHECK(json::parse(last)["tools"].size() == 2);
  std::string all;
  appendToolsListPage(all, *snapshot, 0, 100, cursor);
  CHECK(json::parse(all) == json{{"tools", expected(0, 6)}});
}

TEST_CASE("tools/list: a definition a snapshot changed is listed from its own text", "[mcp][registry]") {
  SchemaCache schemas;
  ToolRegistry registry(schemas);
  registry.add("a", mixedRecord(), {});
  const auto& plain = *registry.effectiveSet()->at(3);
  REQUIRE(plain.name == "plain");
  json definition = plain.definition();
  definition["description"] = "described for this snapshot: \"ü\"";
  const auto described = withDefinition(plain, definition);
  std::string text;
  REQUIRE(appendMcpDefinition(text, *described));
  CHECK(json::parse(text)["description"] == "described for this snapshot: \"ü\"");
  CHECK(text == protocol::writeJson(*mcpDefinition(*described)));
  definition.erase("inputSchema");  // a provider's shaping may leave none: not listable as it is
  CHECK_FALSE(withDefinition(plain, definition)->shownObjectSchemas);
}
