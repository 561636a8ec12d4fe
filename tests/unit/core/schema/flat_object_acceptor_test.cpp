// The quick "valid" for flat object schemas: which schemas it covers, and that it never accepts a
// value valijson would refuse (checked against the same schema made uncovered by a keyword
// valijson ignores), while accepting the valid values it is there for.
#include "core/schema/flat_object_acceptor.h"
#include "core/schema/json_schema.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <vector>

using toold::core::CompiledSchema;
using toold::core::json;
using toold::core::schema_detail::FlatObjectAcceptor;

namespace {

const json kReadSchema = json::parse(R"({
  "type": "object", "additionalProperties": false, "required": ["filePath"],
  "properties": {
    "filePath": {"type": "string", "description": "The absolute path"},
    "offset": {"type": "integer", "minimum": 1},
    "limit": {"type": "integer", "minimum": 1, "maximum": 2000}
  }})");

/// The same schema with a keyword the acceptor does not know (valijson ignores it): validated by
/// valijson alone.
bool valijsonAccepts(json schema, const json& value) {
  schema["x-uncovered"] = true;
  REQUIRE_FALSE(FlatObjectAcceptor::compile(schema).has_value());
  return CompiledSchema::compile(schema)->validate(value).empty();
}

} // namespace

TEST_CASE("flat object acceptor covers flat object schemas and nothing else", "[schema][acceptor]") {
  CHECK(FlatObjectAcceptor::compile(kReadSchema).has_value());
  CHECK(FlatObjectAcceptor::compile(json{{"type", "object"}}).has_value());
  CHECK(FlatObjectAcceptor::compile(
            json::parse(R"({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
                            "properties": {"mode": {"type": ["string", "null"], "enum": ["a", "b"]}}})"))
            .has_value());

  const std::vector<const char*> uncovered = {
      R"({"properties": {"a": {"type": "string"}}})",                        // no "type": "object"
      R"({"type": "array"})",
      R"({"type": ["object", "null"]})",
      R"({"type": "object", "additionalProperties": {"type": "string"}})",  // a schema, not a boolean
      R"({"type": "object", "patternProperties": {"^x": {}}})",
      R"({"type": "object", "properties": {"a": {"$ref": "#/$defs/a"}}, "$defs": {"a": {}}})",
      R"({"type": "object", "properties": {"a": {"type": "object"}}})",
      R"({"type": "object", "properties": {"a": {"type": "array", "items": {}}}})",
      R"({"type": "object", "properties": {"a": {"type": "string", "pattern": "^x"}}})",
      R"({"type": "object", "properties": {"a": {"type": "string", "minLength": 1}}})",
      R"({"type": "object", "properties": {"a": {"type": "string", "format": "date"}}})",
      R"({"type": "object", "properties": {"a": {"enum": ["x", 1]}}})",
      R"({"type": "object", "properties": {"a": {"type": "integer", "exclusiveMinimum": true}}})",
      R"({"type": "object", "properties": {"a": {"type": "integer", "multipleOf": 2}}})",
      R"({"type": "object", "properties": {"a": true}})",
      R"({"type": "object", "allOf": [{}]})",
      R"({"type": "object", "minProperties": 1})",
  };
  for (const char* text : uncovered) {
    INFO(text);
    CHECK_FALSE(FlatObjectAcceptor::compile(json::parse(text)).has_value());
  }
}

TEST_CASE("flat object acceptor accepts valid inputs and nothing valijson refuses", "[schema][acceptor]") {
  const json schema = json::parse(R"({
    "type": "object", "additionalProperties": false, "required": ["path", "count"],
    "properties": {
      "path": {"type": "string"},
      "count": {"type": "integer", "minimum": -5, "maximum": 9007199254740993},
      "ratio": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1.5},
      "mode": {"type": ["string", "null"], "enum": ["fast", "exact"]},
      "flag": {"type": "boolean", "default": false},
      "anything": {"description": "no constraint at all"}
    }})");
  const auto acceptor = FlatObjectAcceptor::compile(schema);
  REQUIRE(acceptor.has_value());

  const std::vector<json> valid = {
      json::parse(R"({"path": "a", "count": 0})"),
      json::parse(R"({"path": "", "count": -5})"),
      json::parse(R"({"path": "a", "count": 9007199254740993})"),
      json::parse(R"({"path": "a", "count": 3, "ratio": 0.5, "mode": "fast", "flag": true})"),
      json::parse(R"({"path": "a", "count": 3, "ratio": 1, "anything": {"deep": [1, 2]}})"),
  };
  for (const json& value : valid) {
    INFO(value.dump());
    CHECK(acceptor->accepts(value));
    CHECK(valijsonAccepts(schema, value));
  }

  // Invalid, or valid in a way the acceptor leaves to valijson (2.0 is an integer to JSON Schema).
  const std::vector<json> others = {
      json::parse(R"({"path": "a"})"),
      json::parse(R"({"count": 1})"),
      json::parse(R"({"path": 1, "count": 1})"),
      json::parse(R"({"path": "a", "count": "1"})"),
      json::parse(R"({"path": "a", "count": 1.5})"),
      json::parse(R"({"path": "a", "count": 2.0})"),
      json::parse(R"({"path": "a", "count": -6})"),
      json::parse(R"({"path": "a", "count": 9007199254740994})"),
      json::parse(R"({"path": "a", "count": 18446744073709551615})"),
      json::parse(R"({"path": "a", "count": -9223372036854775808})"),
      json::parse(R"({"path": "a", "count": 1, "ratio": 0})"),
      json::parse(R"({"path": "a", "count": 1, "ratio": 1.5})"),
      json::parse(R"({"path": "a", "count": 1, "ratio": "0.5"})"),
      json::parse(R"({"path": "a", "count": 1, "mode": "slow"})"),
      json::parse(R"({"path": "a", "count": 1, "mode": null})"),
      json::parse(R"({"path": "a", "count": 1, "flag": 0})"),
      json::parse(R"({"path": "a", "count": 1, "extra": 1})"),
      json::parse(R"(["path", "count"])"),
      json::parse(R"("path")"),
      json(nullptr),
  };
  for (const json& value : others) {
    INFO(value.dump());
    if (acceptor->accepts(value)) CHECK(valijsonAccepts(schema, value));
  }
  // The ones that are invalid are refused by both. (Not the largest unsigned count: valijson reads
  // it as -1 and lets it pass; the acceptor leaves it to valijson, so toold's answer is unchanged.)
  CHECK_FALSE(acceptor->accepts(others[8]));
  for (std::size_t i : {0u, 1u, 2u, 3u, 4u, 6u, 7u, 9u, 10u, 11u, 12u, 13u, 14u, 15u, 16u, 17u, 18u, 19u}) {
    INFO(others[i].dump());
    CHECK_FALSE(acceptor->accepts(others[i]));
    CHECK_FALSE(valijsonAccepts(schema, others[i]));
  }
}

TEST_CASE("flat object acceptor leaves open schemas open", "[schema][acceptor]") {
  const json open = json::parse(R"({"type": "object", "properties": {"a": {"type": "integer"}}})");
  const auto acceptor = FlatObjectAcceptor::compile(open);
  REQUIRE(acceptor.has_value());
  CHECK(acceptor->accepts(json::parse(R"({"b": [1], "c": {"d": null}})")));
  CHECK(acceptor->accepts(json::object()));
  CHECK_FALSE(acceptor->accepts(json::parse(R"({"a": "1"})")));
}

TEST_CASE("a schema the acceptor covers still words every issue as valijson does", "[schema][acceptor]") {
  const auto compiled = CompiledSchema::compile(kReadSchema);
  const auto issues = compiled->validate(json::parse(R"({"filePath": 3, "offset": 0})"));
  json uncovered = kReadSchema;
  uncovered["x-uncovered"] = true;
  const auto expected = CompiledSchema::compile(uncovered)->validate(json::parse(R"({"filePath": 3, "offset": 0})"));
  REQUIRE(issues.size() == 2);
  REQUIRE(issues.size() == expected.size());
  for (std::size_t i = 0; i < issues.size(); ++i) {
    CHECK(issues[i].path == expected[i].path);
    CHECK(issues[i].message == expected[i].message);
  }
  CHECK(compiled->validate(json::parse(R"({"filePath": "/a", "offset": 1, "limit": 2000})")).empty());
}
