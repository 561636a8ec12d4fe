#include "builtins/codemode/schema_signature.h"
#include "builtins/codemode/tool_path.h"

#include <catch2/catch.hpp>

using namespace toold::codemode;
using json = nlohmann::json;

TEST_CASE("path expressions: dots for identifiers, JSON-quoted brackets for the rest", "[codemode]") {
  CHECK(pathExpression({"github", "list_issues"}) == "tools.github.list_issues");
  CHECK(pathExpression({"2d_get_scene"}) == R"(tools["2d_get_scene"])");
  CHECK(pathExpression({"context7", "resolve-library-id"}) == R"(tools.context7["resolve-library-id"])");
  CHECK(pathExpression({"123", "_private", "-tools", "2d_get_scene"}) ==
        R"(tools["123"]._private["-tools"]["2d_get_scene"])");
  CHECK(pathExpression({"$x"}) == "tools.$x");
  CHECK(toolPath("acme.tools", "echo") == ToolPath{"acme", "tools", "echo"});
  CHECK(toolPath("", "read") == ToolPath{"read"});
  CHECK(dottedPath({"acme", "tools", "echo"}) == "acme.tools.echo");
}

TEST_CASE("path expressions read back, with or without tools.", "[codemode]") {
  CHECK(parsePathExpression(R"(tools["123"]._private["-tools"]["2d_get_scene"])") ==
        ToolPath{"123", "_private", "-tools", "2d_get_scene"});
  CHECK(parsePathExpression("tools.github.list_issues") == ToolPath{"github", "list_issues"});
  CHECK(parsePathExpression("github.list_issues") == ToolPath{"github", "list_issues"});
  CHECK(parsePathExpression("context7.resolve-library-id") == ToolPath{"context7", "resolve-library-id"});
  CHECK(parsePathExpression("a..b").empty());
  CHECK(parsePathExpression(R"(tools["unterminated)").empty());
}

TEST_CASE("signatures: scalars, arrays, optional keys, quoted keys", "[codemode]") {
  const json input = json::parse(R"({
    "type": "object",
    "properties": {
      "id": {"type": "string", "description": "The order number"},
      "limit": {"type": "integer", "default": 10},
      "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 5},
      "dry-run": {"type": "boolean"}
    },
    "required": ["id"]
  })");
  CHECK(renderSignature("tools.orders.lookup", input, std::nullopt) ==
        "tools.orders.lookup(input: {\n"
        "  \"dry-run\"?: boolean,\n"
        "  /** The order number */\n"
        "  id: string,\n"
        "  /** @default 10 */\n"
        "  limit?: number,\n"
        "  /** @maxItems 5 */\n"
        "  tags?: Array<string>,\n"
        "}): Promise<string | null>");
}

TEST_CASE("signatures: no input, output schemas, nesting", "[codemode]") {
  CHECK(renderSignature("tools.ping", json::object(), std::nullopt) == "tools.ping(): Promise<string | null>");
  CHECK(renderSignature("tools.ping", json{{"type", "object"}, {"properties", json::object()}}, std::nullopt) ==
        "tools.ping(): Promise<string | null>");
  const json output = json::parse(R"({"type": "object", "properties": {"total": {"type": "number"},
     "rows": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}}},
     "required": ["total", "rows"]})");
  CHECK(renderSignature("tools.q", json::object(), output) ==
        "tools.q(): Promise<{\n  rows: Array<{\n    name: string,\n  }>,\n  total: number,\n}>");
}

TEST_CASE("signatures: literal unions, unions, intersections, maps", "[codemode]") {
  const json root = json::object();
  CHECK(renderSchemaType(json::parse(R"({"enum": ["a", "b", 3]})"), root) == R"("a" | "b" | 3)");
  CHECK(renderSchemaType(json::parse(R"({"const": "fixed"})"), root) == R"("fixed")");
  CHECK(renderSchemaType(json::parse(R"({"anyOf": [{"type": "string"}, {"type": "null"}]})"), root) == "string | null");
  CHECK(renderSchemaType(json::parse(R"({"type": ["string", "number"]})"), root) == "string | number");
  CHECK(renderSchemaType(json::parse(R"({"oneOf": [{"type": "integer"}, {"type": "number"}]})"), root) == "number");
  CHECK(renderSchemaType(json::parse(R"({"allOf": [{"type": "object", "properties": {"a": {"type": "string"}}},
                                                   {"type": "object", "properties": {"b": {"type": "string"}}}]})"),
                         root) == "{\n  a?: string,\n} & {\n  b?: string,\n}");
  CHECK(renderSchemaType(json::parse(R"({"type": "object", "additionalProperties": {"type": "number"}})"), root) ==
        "{\n  [key: string]: number,\n}");
  CHECK(renderSchemaType(json::parse(R"({"type": "object"})"), root) == "{}");
  CHECK(renderSchemaType(json::parse(R"({})"), root) == "unknown");
  CHECK(renderSchemaType(json(true), root) == "unknown");
}

TEST_CASE("signatures: local refs resolve, recursion and unresolvable refs are unknown", "[codemode]") {
  const json schema = json::parse(R"({
    "$defs": {
      "node": {"type": "object", "properties": {"value": {"type": "string"}, "next": {"$ref": "#/$defs/node"}}}
    },
    "type": "object",
    "properties": {"head": {"$ref": "#/$defs/node"}, "other": {"$ref": "https://example.com/x"},
                   "missing": {"$ref": "#/$defs/none"}}
  })");
  CHECK(renderSchemaType(schema, schema) ==
        "{\n  head?: {\n    next?: unknown,\n    value?: string,\n  },\n  missing?: unknown,\n  other?: unknown,\n}");
}

TEST_CASE("signatures: comments are JSDoc, and cannot be closed early", "[codemode]") {
  const json schema = json::parse(R"({"type": "object", "properties": {
    "when": {"type": "string", "format": "date-time", "description": "Start */ here\nsecond line", "deprecated": true}}})");
  CHECK(renderSchemaType(schema, schema) ==
        "{\n  /**\n   * Start *\\/ here\n   * second line\n   * @deprecated\n   * @format date-time\n   */\n  when?: string,\n}");
}

TEST_CASE("signatures: nesting beyond 8 levels is unknown", "[codemode]") {
  json schema = json{{"type", "string"}};
  for (int i = 0; i < 12; ++i) schema = json{{"type", "array"}, {"items", schema}};
  const std::string rendered = renderSchemaType(schema, schema);
  CHECK(rendered.find("unknown") != std::string::npos);
  CHECK(rendered.find("string") == std::string::npos);
}

TEST_CASE("tool paths: the tree for the bootstrap keeps first-seen order and marks callable nodes", "[codemode]") {
  CHECK(toolTreeJson({}) == "[0,[]]");
  CHECK(toolTreeJson({{"b", "x"}, {"a"}, {"b", "y"}, {"b"}}) ==
        R"([0,[["b",[1,[["x",[1,[]]],["y",[1,[]]]]]],["a",[1,[]]]]])");
  CHECK(toolTreeJson({{"2d", "q\"uote"}}) == R"([0,[["2d",[0,[["q\"uote",[1,[]]]]]]]])");
}
