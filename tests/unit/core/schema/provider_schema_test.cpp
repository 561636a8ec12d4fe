// Shaping input schemas per provider: before/after schemas for every profile, and the round trip
// — what a model answers against the shaped schema, once undone, validates against the original.
#include "core/schema/provider_schema.h"

#include "core/schema/json_schema.h"

#include <catch2/catch.hpp>

using toold::core::CompiledSchema;
using toold::core::json;
using toold::core::parseSchemaProvider;
using toold::core::projectSchema;
using toold::core::SchemaProvider;
using toold::core::undoProjection;

namespace {

json schemaFor(SchemaProvider provider, const json& schema) {
  auto projected = projectSchema(schema, provider);
  REQUIRE(projected.schema.has_value());
  return *projected.schema;
}

bool validAgainst(const json& schema, const json& value) { return CompiledSchema::compile(schema)->validate(value).empty(); }

// Every object node and every nested list of schemas, for "nothing like this anywhere" checks.
bool anywhere(const json& node, const std::function<bool(const json&)>& found) {
  if (found(node)) return true;
  if (node.is_object())
    for (const auto& [key, value] : node.items())
      if (anywhere(value, found)) return true;
  if (node.is_array())
    for (const auto& value : node)
      if (anywhere(value, found)) return true;
  return false;
}

} // namespace

TEST_CASE("provider names", "[provider_schema]") {
  CHECK(parseSchemaProvider("google") == SchemaProvider::Google);
  CHECK(parseSchemaProvider("gemini") == SchemaProvider::Google);
  CHECK(parseSchemaProvider("openai-strict") == SchemaProvider::OpenAIStrict);
  CHECK(parseSchemaProvider("anthropic") == SchemaProvider::Anthropic);
  CHECK(parseSchemaProvider("openai-compatible") == SchemaProvider::OpenAICompatible);
  CHECK_FALSE(parseSchemaProvider("Anthropic").has_value());
  CHECK_FALSE(parseSchemaProvider("").has_value());
}

TEST_CASE("google: numeric enums are sent as strings and come back as numbers", "[provider_schema]") {
  const json original = json::parse(R"({"type":"object","properties":{
      "level":{"enum":[1,2,3],"type":"integer","description":"Verbosity"}},"required":["level"]})");
  auto projected = projectSchema(original, SchemaProvider::Google);
  REQUIRE(projected.schema);
  CHECK((*projected.schema)["properties"]["level"] ==
        json::parse(R"({"description":"Verbosity","type":"integer","format":"enum","enum":["1","2","3"]})"));
  // Gemini answers with a member as it was shown: the string.
  json answer = json::parse(R"({"level":"2"})");
  CHECK_FALSE(validAgainst(original, answer));
  undoProjection(answer, projected.undo);
  CHECK(answer == json::parse(R"({"level":2})"));
  CHECK(validAgainst(original, answer));
}

TEST_CASE("google: boolean enums and enums inside arrays round trip", "[provider_schema]") {
  const json original = json::parse(R"({"type":"object","properties":{
      "flags":{"type":"array","items":{"enum":[true,false]}},
      "name":{"enum":["a","b"]}}})");
  auto projected = projectSchema(original, SchemaProvider::Google);
  json answer = json::parse(R"({"flags":["true","false"],"name":"a"})");
  undoProjection(answer, projected.undo);
  CHECK(answer == json::parse(R"({"flags":[true,false],"name":"a"})"));
  CHECK(validAgainst(original, answer));
  // A string enum needs no undo: "a" stays "a".
  CHECK((*projected.schema)["properties"]["name"] == json::parse(R"({"type":"string","enum":["a","b"]})"));
}

TEST_CASE("google: arrays, required, scalars, dropped keywords", "[provider_schema]") {
  const json original = json::parse(R"({"type":"object","additionalProperties":false,"properties":{
      "list":{"type":"array"},
      "nested":{"type":"array","items":{"type":"array","items":{}}},
      "mixed":{"type":"array","items":{"anyOf":[{"type":"string"},{"type":"number"}]}},
      "scalar":{"type":"string","properties":{"x":{}},"required":["x"]},
      "bounded":{"type":"string","pattern":"^a","minLength":1,"maxLength":9,"default":"a"},
      "maybe":{"type":["integer","null"],"description":"max"},
      "either":{"anyOf":[{"type":"string"},{"type":"null"}]},
      "kind":{"const":"file"},
      "ref":{"$ref":"#/$defs/P"},
      "blank":{"type":"string","enum":["","fast","slow"]},
      "map":{"type":"object","additionalProperties":{"type":"string"}}},
    "required":["list","ghost"],"$defs":{"P":{"type":"string"}}})");
  const json shaped = schemaFor(SchemaProvider::Google, original);
  const json& p = shaped["properties"];
  CHECK(p["list"] == json::parse(R"({"type":"array","items":{"type":"string"}})"));
  CHECK(p["nested"]["items"]["items"] == json::parse(R"({"type":"string"})"));
  CHECK(p["mixed"]["items"] == json::parse(R"({"anyOf":[{"type":"string"},{"type":"number"}]})"));
  CHECK(p["scalar"] == json::parse(R"({"type":"string"})"));
  CHECK(p["bounded"] == json::parse(R"({"type":"string","minLength":1})"));
  CHECK(p["maybe"] == json::parse(R"({"description":"max","type":"integer","nullable":true})"));
  CHECK(p["either"] == json::parse(R"({"type":"string","nullable":true})"));
  CHECK(p["kind"] == json::parse(R"({"type":"string","enum":["file"]})"));
  CHECK(p["ref"] == json::object());
  CHECK(p["blank"] == json::parse(R"({"type":"string","enum":["fast","slow"]})"));
  CHECK(p["map"] == json::parse(R"({"type":"object"})"));
  CHECK(shaped["required"] == json::parse(R"(["list"])"));
  CHECK_FALSE(shaped.contains("additionalProperties"));
  CHECK_FALSE(shaped.contains("$defs"));
}

TEST_CASE("google: a tool without inputs is sent no parameters", "[provider_schema]") {
  CHECK_FALSE(projectSchema(json::parse(R"({"type":"object","properties":{}})"), SchemaProvider::Google).schema);
  CHECK_FALSE(projectSchema(json::object(), SchemaProvider::Google).schema);
}

TEST_CASE("openai: root alternatives become one closed object, null alternatives go", "[provider_schema]") {
  const json original = json::parse(R"({"anyOf":[
      {"type":"object","properties":{"path":{"type":"string"},"maybe":{"anyOf":[{"type":"string"},{"type":"null"}]}},"required":["path"]},
      {"type":"object","properties":{"resource":{"type":"string"},"path":{"type":"number"}},"required":["resource"]}]})");
  auto projected = projectSchema(original, SchemaProvider::OpenAI);
  REQUIRE(projected.schema);
  CHECK(*projected.schema == json::parse(R"({"type":"object","properties":{"resource":{"type":"string"},
      "path":{"type":"string"},"maybe":{"type":"string"}},"additionalProperties":false})"));
  CHECK(projected.strict == false);
  CHECK_FALSE(projected.note.empty());
  for (const char* key : {"anyOf", "oneOf", "allOf", "enum", "not", "const"})
    CHECK_FALSE(projected.schema->contains(key));
}

TEST_CASE("openai: root allOf unions required, untyped properties get a type", "[provider_schema]") {
  const json original = json::parse(R"({"allOf":[
      {"type":"object","properties":{"a":{"minimum":1}},"required":["a"]},
      {"type":"object","properties":{"b":{"items":{"type":"string"}}},"required":["b"]}]})");
  const json shaped = schemaFor(SchemaProvider::OpenAI, original);
  CHECK(shaped["required"] == json::parse(R"(["a","b"])"));
  CHECK(shaped["properties"]["a"]["type"] == "number");
  CHECK(shaped["properties"]["b"]["type"] == "array");
}

TEST_CASE("openai-strict: closed, all required, optional made nullable and undone", "[provider_schema]") {
  const json original = json::parse(R"({"type":"object","properties":{
      "path":{"type":"string"},
      "limit":{"type":"integer","minimum":1},
      "mode":{"type":"string","enum":["a","b"]},
      "opts":{"type":"object","properties":{"deep":{"type":"boolean"}}},
      "cursor":{"anyOf":[{"type":"string"},{"type":"null"}]}},"required":["path"]})");
  auto projected = projectSchema(original, SchemaProvider::OpenAIStrict);
  REQUIRE(projected.schema);
  CHECK(projected.strict == true);
  const json& shaped = *projected.schema;
  CHECK(shaped["additionalProperties"] == false);
  CHECK(shaped["required"] == json::parse(R"(["cursor","limit","mode","opts","path"])"));
  CHECK(shaped["properties"]["path"] == json::parse(R"({"type":"string"})"));
  CHECK(shaped["properties"]["limit"] == json::parse(R"J({"type":["integer","null"],"description":"(minimum: 1)"})J"));
  CHECK(shaped["properties"]["mode"] == json::parse(R"({"type":["string","null"],"enum":["a","b",null]})"));
  CHECK(shaped["properties"]["opts"]["additionalProperties"] == false);
  CHECK(shaped["properties"]["opts"]["required"] == json::parse(R"(["deep"])"));
  // Already nullable: left as it is, and a null for it is meant.
  CHECK(shaped["properties"]["cursor"] == original["properties"]["cursor"]);

  // What a strict model must send: every key, null for the ones it means to leave out.
  json answer = json::parse(R"({"path":"x","limit":null,"mode":null,"opts":{"deep":null},"cursor":null})");
  CHECK(validAgainst(shaped, answer));
  CHECK_FALSE(validAgainst(original, answer));
  undoProjection(answer, projected.undo);
  CHECK(answer == json::parse(R"({"path":"x","opts":{},"cursor":null})"));
  CHECK(validAgainst(original, answer));
}

TEST_CASE("openai-strict: what cannot be strict is sent non-strict with a note", "[provider_schema]") {
  for (const char* text : {R"({"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"string"}}}})",
                           R"({"type":"object","properties":{"t":{"type":"array","items":[{"type":"string"}]}}})",
                           R"({"type":"object","properties":{"n":{"not":{"type":"string"}}}})"}) {
    auto projected = projectSchema(json::parse(text), SchemaProvider::OpenAIStrict);
    CHECK(projected.strict == false);
    CHECK(projected.note.find("cannot be strict") != std::string::npos);
    CHECK(projected.undo.is_null());
  }
}

TEST_CASE("openai-strict: a root anyOf becomes nullable optional properties", "[provider_schema]") {
  const json original = json::parse(R"({"anyOf":[
      {"type":"object","properties":{"path":{"type":"string"}},"required":["path"]},
      {"type":"object","properties":{"resource":{"type":"string"}},"required":["resource"]}]})");
  auto projected = projectSchema(original, SchemaProvider::OpenAIStrict);
  REQUIRE(projected.schema);
  CHECK(projected.strict == true);
  CHECK((*projected.schema)["properties"]["path"] == json::parse(R"({"type":["string","null"]})"));
  json answer = json::parse(R"({"path":"p","resource":null})");
  undoProjection(answer, projected.undo);
  CHECK(answer == json::parse(R"({"path":"p"})"));
  CHECK(validAgainst(original, answer));
}

TEST_CASE("anthropic: root combinators folded, nested ones kept", "[provider_schema]") {
  const json allOf = json::parse(R"({"allOf":[
      {"type":"object","properties":{"a":{"type":"string"}},"required":["a"]},
      {"type":"object","properties":{"b":{"anyOf":[{"type":"string"},{"type":"number"}]}},"required":["b"]}]})");
  const json merged = schemaFor(SchemaProvider::Anthropic, allOf);
  CHECK(merged == json::parse(R"({"type":"object","properties":{"a":{"type":"string"},
      "b":{"anyOf":[{"type":"string"},{"type":"number"}]}},"required":["a","b"]})"));

  const json oneOfFields = json::parse(R"({"type":"object","description":"Find it.",
      "properties":{"route":{"type":"string"},"file":{"type":"string"}},
      "anyOf":[{"required":["route"]},{"required":["file"]}]})");
  const json folded = schemaFor(SchemaProvider::Anthropic, oneOfFields);
  CHECK_FALSE(folded.contains("anyOf"));
  CHECK(folded["description"] == "Find it. Provide at least one of: file, route.");
  CHECK_FALSE(folded.contains("required"));

  const json plain = json::parse(R"({"type":"object","properties":{"x":{"$ref":"#/$defs/X"}},"$defs":{"X":{"type":"string"}}})");
  CHECK(schemaFor(SchemaProvider::Anthropic, plain) == plain);
  CHECK(schemaFor(SchemaProvider::Anthropic, json::object()) == json::parse(R"({"type":"object","properties":{}})"));
}

TEST_CASE("anthropic: variants with properties keep what all of them require", "[provider_schema]") {
  const json original = json::parse(R"({"oneOf":[
      {"type":"object","properties":{"id":{"type":"string"},"a":{"type":"string"}},"required":["id","a"]},
      {"type":"object","properties":{"id":{"type":"string"},"b":{"type":"string"}},"required":["id","b"]}]})");
  CHECK(schemaFor(SchemaProvider::Anthropic, original)["required"] == json::parse(R"(["id"])"));
}

TEST_CASE("xai and moonshot", "[provider_schema]") {
  const json original = json::parse(R"({"type":"object","additionalProperties":false,"properties":{
      "o":{"type":"object","additionalProperties":false,"properties":{}},
      "r":{"$ref":"#/$defs/R","description":"dropped for moonshot"},
      "t":{"type":"array","items":[{"type":"string"},{"type":"number"}]},
      "p":{"type":"array","prefixItems":[{"type":"string"}],"unevaluatedItems":false}},
    "$defs":{"R":{"type":"string"}}})");
  const json xai = schemaFor(SchemaProvider::XAI, original);
  CHECK_FALSE(anywhere(xai, [](const json& n) { return n.is_object() && n.contains("additionalProperties") && n["additionalProperties"] == false; }));
  const json moonshot = schemaFor(SchemaProvider::Moonshot, original);
  CHECK(moonshot["properties"]["r"] == json::parse(R"({"$ref":"#/$defs/R"})"));
  CHECK(moonshot["properties"]["t"]["items"] == json::parse(R"({"anyOf":[{"type":"string"},{"type":"number"}]})"));
  CHECK(moonshot["properties"]["p"] == json::parse(R"({"type":"array","items":{"type":"string"}})"));
}

TEST_CASE("raw leaves the schema as registered, projections are deterministic", "[provider_schema]") {
  const json original = json::parse(R"({"anyOf":[{"type":"object"}],"x-keep":1})");
  CHECK(schemaFor(SchemaProvider::Raw, original) == original);
  for (auto provider : {SchemaProvider::Google, SchemaProvider::OpenAI, SchemaProvider::OpenAIStrict, SchemaProvider::OpenAICompatible,
                        SchemaProvider::Anthropic, SchemaProvider::Moonshot, SchemaProvider::XAI}) {
    auto a = projectSchema(original, provider);
    auto b = projectSchema(original, provider);
    CHECK(a.schema.value_or(json()).dump() == b.schema.value_or(json()).dump());
  }
}

TEST_CASE("undo leaves what does not fit alone", "[provider_schema]") {
  const json undo = json::parse(R"({"properties":{"n":{"enum":[1,2]}},"nullAbsent":["m"]})");
  json input = json::parse(R"({"n":"7","m":0,"other":null})");
  undoProjection(input, undo);
  CHECK(input == json::parse(R"({"n":"7","m":0,"other":null})"));
  json notAnObject = "2";
  undoProjection(notAnObject, undo);
  CHECK(notAnObject == "2");
}

TEST_CASE("openai-compatible: local references inlined, recursive ones kept", "[provider_schema]") {
  const json original = json::parse(R"({"type":"object","properties":{
      "a":{"$ref":"#/$defs/P","description":"first"},"b":{"type":"array","items":{"$ref":"#/definitions/Q"}}},
    "$defs":{"P":{"type":"string","description":"a path"}},"definitions":{"Q":{"type":"integer"}}})");
  auto projected = projectSchema(original, SchemaProvider::OpenAICompatible);
  REQUIRE(projected.schema);
  CHECK((*projected.schema)["properties"]["a"] == json::parse(R"({"type":"string","description":"first"})"));
  CHECK((*projected.schema)["properties"]["b"]["items"] == json::parse(R"({"type":"integer"})"));
  CHECK_FALSE(projected.schema->contains("$defs"));
  CHECK_FALSE(projected.schema->contains("definitions"));
  CHECK(projected.strict == false);

  const json recursive = json::parse(R"({"type":"object","properties":{"tree":{"$ref":"#/$defs/Node"}},
    "$defs":{"Node":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/Node"}}}}}})");
  auto kept = projectSchema(recursive, SchemaProvider::OpenAICompatible);
  REQUIRE(kept.schema);
  CHECK((*kept.schema)["properties"]["tree"]["properties"]["kids"]["items"] == json::parse(R"({"$ref":"#/$defs/Node"})"));
  CHECK(kept.schema->contains("$defs"));
}
