#include "core/schema/json_schema.h"
#include "core/schema/schema_precheck.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace toold::core;
using json = nlohmann::json;

namespace {

bool compiles(const json& schema) {
  try {
    CompiledSchema::compile(schema);
    return true;
  } catch (const SchemaError&) {
    return false;
  }
}

// Values of every kind, well- and ill-formed for one keyword or another.
std::vector<json> probeValues() {
  return {json(nullptr), json(true), json(false), json(0), json(1), json(-1), json(2.5), json(-0.5), json(1e308),
          json("string"), json("object"), json(""), json::array(), json::array({"a", "b"}), json::array({"a", "a"}),
          json::array({1, "a"}), json::array({"string", "null"}), json::array({json::object()}), json::object(),
          json{{"type", "string"}}, json{{"type", "strin"}}, json{{"$ref", "#/nowhere"}}, json{{"pattern", "("}}};
}

} // namespace

TEST_CASE("schema precheck: the shapes tools use are certain", "[schema]") {
  CHECK(compilesForCertain(json::object()));
  CHECK(compilesForCertain(json::parse(R"({"type": "object", "additionalProperties": false, "required": ["id", "limit"],
      "properties": {"id": {"type": "string", "description": "The identifier."},
                     "fields": {"type": "array", "items": {"type": "string"}, "description": "Which fields."},
                     "limit": {"type": "integer", "minimum": 1, "maximum": 500},
                     "order": {"type": "string", "enum": ["newest", "oldest"]},
                     "archived": {"type": ["boolean", "null"], "default": false}}})")));
}

TEST_CASE("schema precheck: what it does not fully know is left to the compiler", "[schema]") {
  for (const char* text : {R"({"type": "objekt"})", R"({"type": ["string", "string"]})", R"({"minLength": -1})",
                           R"({"required": "a"})", R"({"enum": []})", R"({"minimum": "1"})", R"({"multipleOf": 0})",
                           R"({"properties": {"a": {"$ref": "#/$defs/a"}}, "$defs": {"a": {}}})",
                           R"({"pattern": "^a"})", R"({"unevaluatedProperties": false})", R"({"anyOf": [{}]})",
                           R"({"$schema": "http://json-schema.org/draft-07/schema#"})", R"({"items": [{}]})", "true"})
    CHECK_FALSE(compilesForCertain(json::parse(text)));
}

TEST_CASE("schema precheck: a schema it calls certain always compiles", "[schema]") {
  // Every keyword it knows, at the root and inside a property, given every probe value: whatever
  // it accepts, the compiler must accept too (it may refuse more than the compiler does, never less).
  const std::vector<std::string> keywords = {
      "type", "properties", "required", "additionalProperties", "items", "enum", "const", "minimum", "maximum",
      "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "minItems", "maxItems",
      "minProperties", "maxProperties", "uniqueItems", "deprecated", "readOnly", "writeOnly", "format", "title",
      "description", "$comment", "default", "examples"};
  std::size_t certain = 0;
  for (const auto& keyword : keywords) {
    for (const auto& value : probeValues()) {
      const json atRoot{{"type", "object"}, {keyword, value}};
      const json inProperty{{"type", "object"}, {"properties", {{"a", {{keyword, value}}}}}};
      for (const json* schema : {&atRoot, &inProperty}) {
        if (!compilesForCertain(*schema)) continue;
        ++certain;
        INFO(schema->dump());
        CHECK(compiles(*schema));
      }
    }
  }
  CHECK(certain > 100);  // the probes reach the accepting side too
}
