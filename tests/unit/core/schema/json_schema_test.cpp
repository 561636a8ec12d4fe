// JSON Schema: dialects, lowering 2020-12 to what valijson enforces, refusals, patterns and
// patternProperties (matched by toold with PCRE2), the wording and paths of issues, defaults, the
// cache, and validation from several threads at once.
#include "core/schema/json_schema.h"
#include "core/schema/schema_cache.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

using toold::core::CompiledSchema;
using toold::core::json;
using toold::core::SchemaCache;
using toold::core::SchemaDialect;
using toold::core::SchemaError;
using toold::core::SchemaIssue;
using Issues = std::vector<SchemaIssue>;

namespace Catch {
template <>
struct StringMaker<SchemaIssue> {
  static std::string convert(const SchemaIssue& issue) { return "{" + issue.path + ": " + issue.message + "}"; }
};
}  // namespace Catch

namespace {

Issues issuesOf(const json& schema, const json& value) { return CompiledSchema::compile(schema)->validate(value); }

/// The SchemaError message compiling `schema` gives, or "(compiled)".
std::string refusal(const json& schema) {
  try {
    CompiledSchema::compile(schema);
  } catch (const SchemaError& error) {
    return error.what();
  }
  return "(compiled)";
}

}  // namespace

TEST_CASE("the dialect is draft-07 when $schema says so or there are top-level definitions", "[schema]") {
  CHECK(CompiledSchema::compile({{"$schema", "http://json-schema.org/draft-07/schema#"}})->dialect() ==
        SchemaDialect::Draft07);
  CHECK(CompiledSchema::compile({{"definitions", json::object()}})->dialect() == SchemaDialect::Draft07);
  CHECK(CompiledSchema::compile({{"$schema", "https://json-schema.org/draft/2020-12/schema"}})->dialect() ==
        SchemaDialect::Draft2020_12);
  CHECK(CompiledSchema::compile(json::object())->dialect() == SchemaDialect::Draft2020_12);
  CHECK(CompiledSchema::compile(true)->dialect() == SchemaDialect::Draft2020_12);
}

TEST_CASE("document() is the schema exactly as given, not the lowered copy", "[schema]") {
  const json schema = {
      {"prefixItems", {{{"type", "string"}}}}, {"items", false}, {"$defs", {{"a", {{"type", "integer"}}}}}};
  CHECK(CompiledSchema::compile(schema)->document() == schema);
}

TEST_CASE("boolean schemas and the empty schema", "[schema]") {
  CHECK(issuesOf(true, {{"anything", 1}}).empty());
  CHECK(issuesOf(json::object(), json::array({1, "two", nullptr})).empty());
  CHECK(issuesOf(false, 1) == Issues{{"root", "No value is allowed here"}});
  CHECK(issuesOf({{"properties", {{"a", false}}}}, {{"a", 1}}) == Issues{{"a", "Unexpected key"}});
}

TEST_CASE("type mismatches say what was expected and what was received", "[schema]") {
  const json schema = {{"type", "object"}, {"properties", {{"a", {{"type", "string"}}}, {"n", {{"type", "integer"}}}}}};
  CHECK(issuesOf(schema, {{"a", 1}}) == Issues{{"a", "Expected string, received number"}});
  CHECK(issuesOf(schema, "text") == Issues{{"root", "Expected object, received string"}});
  CHECK(issuesOf(schema, {{"n", 1.5}}) == Issues{{"n", "Expected integer, received number"}});
  CHECK(issuesOf(schema, {{"n", 2.0}}).empty());  // 2.0 is an integer, as JSON Schema says
  CHECK(issuesOf({{"type", {"string", "null"}}}, true) ==
        Issues{{"root", "Expected string or null, received boolean"}});
  // The branches of an anyOf (a nullable field, as pydantic writes it) merge into one issue.
  const json nullable = {{"properties", {{"a", {{"anyOf", {{{"type", "string"}}, {{"type", "null"}}}}}}}}};
  CHECK(issuesOf(nullable, {{"a", 5}}) == Issues{{"a", "Expected string or null, received number"}});
}

TEST_CASE("a missing key is reported at its own path", "[schema]") {
  const json schema = {
      {"type", "object"}, {"required", {"a"}}, {"properties", {{"a", {{"type", "object"}, {"required", {"b", "c"}}}}}}};
  CHECK(issuesOf(schema, json::object()) == Issues{{"a", "Missing key"}});
  CHECK(issuesOf(schema, {{"a", {{"c", 1}}}}) == Issues{{"a.b", "Missing key"}});
}

TEST_CASE("unexpected keys are each reported, at the key", "[schema]") {
  const json schema = {{"properties", {{"path", {{"type", "string"}}}}},
                       {"patternProperties", {{"^x-", true}}},
                       {"additionalProperties", false}};
  CHECK(issuesOf(schema, {{"path", "a"}, {"x-ok", 1}}).empty());
  CHECK(issuesOf(schema, {{"pathh", "a"}, {"mode", 1}}) ==
        Issues{{"mode", "Unexpected key"}, {"pathh", "Unexpected key"}});
}

TEST_CASE("numbers, strings, arrays and objects outside their bounds", "[schema]") {
  CHECK(issuesOf({{"minimum", 1}}, 0) == Issues{{"root", "Expected a value greater than or equal to 1"}});
  CHECK(issuesOf({{"exclusiveMinimum", 0}}, 0) == Issues{{"root", "Expected a value greater than 0"}});
  CHECK(issuesOf({{"maximum", 2.5}}, 3) == Issues{{"root", "Expected a value less than or equal to 2.5"}});
  CHECK(issuesOf({{"exclusiveMaximum", 10}}, 10) == Issues{{"root", "Expected a value less than 10"}});
  CHECK(issuesOf({{"multipleOf", 5}}, 12) == Issues{{"root", "Expected a multiple of 5"}});
  CHECK(issuesOf({{"multipleOf", 0.1}}, 0.3).empty());
  CHECK(issuesOf({{"multipleOf", 2}}, "3").empty());  // only numbers are judged
  CHECK(issuesOf({{"minLength", 3}}, "ab") ==
        Issues{{"root", "Expected a string of at least 3 characters, received 2"}});
  CHECK(issuesOf({{"maxLength", 1}}, "héé") ==
        Issues{{"root", "Expected a string of at most 1 character, received 3"}});
  CHECK(issuesOf({{"pattern", "^[a-z]+$"}}, "Ab") ==
        Issues{{"root", "Expected a string matching the pattern /^[a-z]+$/"}});
  CHECK(issuesOf({{"minItems", 1}}, json::array()) ==
        Issues{{"root", "Expected an array of at least 1 item, received 0"}});
  CHECK(issuesOf({{"maxItems", 2}}, {1, 2, 3}) == Issues{{"root", "Expected an array of at most 2 items, received 3"}});
  CHECK(issuesOf({{"minProperties", 1}}, json::object()) ==
        Issues{{"root", "Expected an object with at least 1 key, received 0"}});
  CHECK(issuesOf({{"maxProperties", 1}}, {{"a", 1}, {"b", 2}}) ==
        Issues{{"root", "Expected an object with at most 1 key, received 2"}});
  CHECK(issuesOf({{"uniqueItems", true}}, {1, 2, 1}) ==
        Issues{{"root", "Expected unique items; [0] and [2] are equal"}});
}

// No cut-off on length: PCRE2 keeps its backtracking off the machine stack, and its limits answer
// "too costly" rather than hang.
TEST_CASE("a pattern is searched in strings of any length, one too costly to search says so", "[schema]") {
  const auto schema = CompiledSchema::compile({{"pattern", "^[a-z]+$"}});
  const std::string letters(1000000, 'a');
  CHECK(schema->validate(letters).empty());
  CHECK(schema->validate(letters + "A") == Issues{{"root", "Expected a string matching the pattern /^[a-z]+$/"}});
  const auto start = std::chrono::steady_clock::now();
  CHECK(issuesOf({{"pattern", "^(a+)+$"}}, std::string(40, 'a') + "b") ==
        Issues{{"root", "String could not be checked against the pattern /^(a+)+$/ (too costly)"}});
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  CHECK(issuesOf({{"pattern", "^a"}}, json(std::string("a\xff"))) ==
        Issues{{"root", "String could not be checked against the pattern /^a/ (not valid UTF-8)"}});
}

// Back-references can make a search exponential, but the limits bound that like any other.
TEST_CASE("a pattern may use back-references", "[schema]") {
  CHECK(issuesOf({{"pattern", "^(a|b)\\1$"}}, "bb").empty());
  CHECK(issuesOf({{"pattern", "^(a|b)\\1$"}}, "ab") ==
        Issues{{"root", "Expected a string matching the pattern /^(a|b)\\1$/"}});
}

TEST_CASE("patternProperties apply to the keys they match, additionalProperties to the others", "[schema]") {
  const json schema = {{"properties", {{"name", {{"type", "string"}}}}},
                       {"patternProperties", {{"^x-", {{"type", "string"}}}, {"-n$", {{"type", "integer"}}}}},
                       {"additionalProperties", {{"type", "boolean"}}}};
  CHECK(issuesOf(schema, {{"name", "a"}, {"x-a", "s"}, {"b-n", 1}, {"flag", true}}).empty());
  // "x-n" matches both patterns, and both apply; "name" is named in properties; "other" is additional.
  CHECK(issuesOf(schema, {{"name", true}, {"x-n", "s"}, {"other", 1}}) ==
        Issues{{"name", "Expected string, received boolean"},
               {"other", "Expected boolean, received number"},
               {"x-n", "Expected integer, received string"}});
  CHECK(issuesOf({{"patternProperties", {{"^secret", false}}}}, {{"secret1", 1}, {"public", 2}}) ==
        Issues{{"secret1", "Unexpected key"}});
  const json draft07 = {{"definitions", json::object()}, {"patternProperties", {{"^a", {{"minimum", 1}}}}}};
  CHECK(issuesOf(draft07, {{"ab", 0}}) == Issues{{"ab", "Expected a value greater than or equal to 1"}});
  const json integers = {{"patternProperties", {{"^a", {{"type", "integer"}}}}}, {"additionalProperties", false}};
  const json either = {{"anyOf", {integers, {{"type", "string"}}}}};
  CHECK(issuesOf(either, {{"a", 1}}).empty());
  CHECK_FALSE(issuesOf(either, {{"a", "x"}}).empty());
}

TEST_CASE("patternProperties nest, recurse, and can be referenced", "[schema]") {
  const json node = {{"patternProperties", {{"^[a-z]+$", {{"$ref", "#/$defs/tree"}}}}},
                     {"additionalProperties", false}};
  const json tree = {{"$defs", {{"tree", node}}}, {"$ref", "#/$defs/tree"}};
  CHECK(issuesOf(tree, {{"a", {{"b", json::object()}}}}).empty());
  CHECK(issuesOf(tree, {{"a", {{"B", json::object()}}}}) == Issues{{"a.B", "Unexpected key"}});
  const json referenced = {{"patternProperties", {{"^n", {{"type", "integer"}}}}},
                           {"properties", {{"count", {{"$ref", "#/patternProperties/^n"}}}}}};
  CHECK(issuesOf(referenced, {{"count", "x"}}) ==
        Issues{{"count", "Expected integer, received string"}});  // "count" matches no pattern; the $ref applies
  const json nested = {{"properties", {{"", {{"patternProperties", {{"^a", {{"type", "integer"}}}}}}}}}};
  const Issues underEmptyKey = issuesOf(nested, {{"", {{"a", "x"}}}});
  REQUIRE(underEmptyKey.size() == 1);
  CHECK(underEmptyKey[0].message == "Expected integer, received string");
}

// Keys are matched by toold with PCRE2, not by valijson with std::regex, so no length is refused.
TEST_CASE("keys of any length are matched against patternProperties, within the search limits", "[schema]") {
  const json schema = {{"patternProperties", {{"^[a-z]+$", {{"type", "integer"}}}}}, {"additionalProperties", false}};
  const std::string longKey(100000, 'k');
  CHECK(issuesOf(schema, {{longKey, 1}}).empty());
  CHECK(issuesOf(schema, {{longKey, "x"}}) == Issues{{longKey, "Expected integer, received string"}});
  const std::string costly = std::string(40, 'a') + "b";
  CHECK(issuesOf({{"patternProperties", {{"^(a+)+$", true}}}, {"additionalProperties", false}}, {{costly, 1}}) ==
        Issues{{costly, "Key could not be checked against the pattern /^(a+)+$/ (too costly)"}});
}

TEST_CASE("enum and const list what is allowed", "[schema]") {
  CHECK(issuesOf({{"enum", {"a", "b"}}}, "c") == Issues{{"root", "Expected one of: \"a\", \"b\""}});
  CHECK(issuesOf({{"enum", {1, nullptr}}}, 1.0).empty());
  CHECK(issuesOf({{"const", "x"}}, "y") == Issues{{"root", "Expected \"x\""}});
}

TEST_CASE("formats date, time and date-time are checked on strings only", "[schema]") {
  CHECK(issuesOf({{"format", "date"}}, "2024-02-29").empty());
  CHECK(issuesOf({{"format", "date"}}, "2023-02-29") == Issues{{"root", "Expected a date in the form YYYY-MM-DD"}});
  CHECK(issuesOf({{"format", "time"}}, "16:52:45.5+02:00").empty());
  CHECK(issuesOf({{"format", "date-time"}}, "2024-07-18T16:52:45Z").empty());
  CHECK(issuesOf({{"format", "date-time"}}, "2024-07-18 16:52").size() == 1);
  CHECK(issuesOf({{"format", "date"}}, 5).empty());
  CHECK(issuesOf({{"format", "uri"}}, {{"not", "a string"}}).empty());  // other formats are annotations
}

TEST_CASE("paths join keys with dots and put indexes in brackets", "[schema]") {
  const json schema = {
      {"properties", {{"a", {{"properties", {{"b", {{"items", {{"properties", {{"c", {{"type", "string"}}}}}}}}}}}}}}}};
  CHECK(issuesOf(schema, {{"a", {{"b", {{{"c", "ok"}}, {{"c", 1}}}}}}}) ==
        Issues{{"a.b[1].c", "Expected string, received number"}});
  CHECK(issuesOf({{"items", {{"type", "string"}}}}, {1}) == Issues{{"[0]", "Expected string, received number"}});
  // A numeric key of an object is a key, not an index.
  CHECK(issuesOf({{"properties", {{"0", {{"type", "string"}}}}}}, {{"0", 1}}) ==
        Issues{{"0", "Expected string, received number"}});
}

TEST_CASE("only leaf issues are reported, in document order", "[schema]") {
  const json schema = {{"type", "object"},
                       {"required", {"z"}},
                       {"properties",
                        {{"a", {{"type", "string"}}},
                         {"b", {{"allOf", {{{"minimum", 1}}, {{"type", "integer"}}}}}},
                         {"c", {{"oneOf", {{{"type", "string"}}, {{"items", {{"type", "number"}}}}}}}}}}};
  const Issues issues = issuesOf(schema, {{"c", {1, "x"}}, {"b", 0.5}, {"a", 1}});
  CHECK(issues == Issues{{"a", "Expected string, received number"},
                         {"b", "Expected a value greater than or equal to 1"},
                         {"b", "Expected integer, received number"},
                         {"c", "Expected string, received array"},
                         {"c[1]", "Expected number, received string"},
                         {"z", "Missing key"}});
}

TEST_CASE("not, contains, oneOf and if/then/else", "[schema]") {
  CHECK(issuesOf({{"not", {{"type", "string"}}}}, "x") == Issues{{"root", "Value must not match the \"not\" schema"}});
  CHECK(issuesOf({{"contains", {{"type", "string"}}}}, {1}) ==
        Issues{{"root", "Expected at least one item matching the \"contains\" schema"}});
  CHECK(issuesOf({{"oneOf", {{{"type", "number"}}, {{"minimum", 0}}}}}, 1) ==
        Issues{{"root", "Value matches more than one of the \"oneOf\" schemas; it must match exactly one"}});
  const json conditional = {{"if", {{"properties", {{"kind", {{"const", "file"}}}}}}},
                            {"then", {{"required", {"path"}}}},
                            {"else", {{"required", {"url"}}}}};
  CHECK(issuesOf(conditional, {{"kind", "file"}}) == Issues{{"path", "Missing key"}});
  CHECK(issuesOf(conditional, {{"kind", "web"}}) == Issues{{"url", "Missing key"}});
}

TEST_CASE("2020-12 prefixItems become a tuple, and a failing tuple item is reported once", "[schema]") {
  const json closed = {{"prefixItems", {{{"type", "string"}}, {{"type", "number"}}}}, {"items", false}};
  CHECK(issuesOf(closed, {"a", 1}).empty());
  CHECK(issuesOf(closed, {"a", 1, true}) == Issues{{"[2]", "Unexpected item"}});
  const json open = {{"prefixItems", {{{"type", "string"}}}}, {"items", {{"type", "boolean"}}}};
  CHECK(issuesOf(open, {1, true}) == Issues{{"[0]", "Expected string, received number"}});
  CHECK(issuesOf(open, {"a", 2}) == Issues{{"[1]", "Expected boolean, received number"}});
  const json draft07 = {{"$schema", "http://json-schema.org/draft-07/schema#"},
                        {"items", {{{"type", "string"}}}},
                        {"additionalItems", {{"type", "integer"}}}};
  CHECK(issuesOf(draft07, {1, 2, "x"}) ==
        Issues{{"[0]", "Expected string, received number"}, {"[2]", "Expected integer, received string"}});
}

TEST_CASE("dependentRequired and dependentSchemas", "[schema]") {
  const json schema = {{"dependentRequired", {{"a", {"b"}}}},
                       {"dependentSchemas", {{"c", {{"properties", {{"d", {{"type", "string"}}}}}}}}}};
  CHECK(issuesOf(schema, {{"b", 1}}).empty());
  CHECK(issuesOf(schema, {{"a", 1}}) == Issues{{"b", "Missing key (required when \"a\" is present)"}});
  CHECK(issuesOf(schema, {{"c", 1}, {"d", 2}}) == Issues{{"d", "Expected string, received number"}});
  CHECK(issuesOf({{"definitions", json::object()}, {"dependencies", {{"a", {"b"}}}}}, {{"a", 1}}) ==
        Issues{{"b", "Missing key (required when \"a\" is present)"}});
}

TEST_CASE("local references into $defs and definitions, nested and recursive", "[schema]") {
  const json nested = {{"$defs",
                        {{"name", {{"type", "string"}, {"minLength", 1}}},
                         {"person", {{"properties", {{"name", {{"$ref", "#/$defs/name"}}}}}}}}},
                       {"properties", {{"owner", {{"$ref", "#/$defs/person"}}}}}};
  CHECK(issuesOf(nested, {{"owner", {{"name", ""}}}}) ==
        Issues{{"owner.name", "Expected a string of at least 1 character, received 0"}});
  const json tree = {
      {"$ref", "#/$defs/node"},
      {"$defs",
       {{"node",
         {{"type", "object"},
          {"required", {"value"}},
          {"properties",
           {{"value", {{"type", "integer"}}}, {"children", {{"items", {{"$ref", "#/$defs/node"}}}}}}}}}}}};
  CHECK(issuesOf(tree, {{"value", 1}, {"children", {{{"value", 2}}, {{"children", json::array()}}}}}) ==
        Issues{{"children[1].value", "Missing key"}});
  const json draft07 = {{"definitions", {{"count", {{"type", "integer"}}}}},
                        {"items", {{"$ref", "#/definitions/count"}}}};
  CHECK(issuesOf(draft07, {1, "x"}) == Issues{{"[1]", "Expected integer, received string"}});
  CHECK(issuesOf({{"$defs", {{"a b", {{"type", "null"}}}}}, {"$ref", "#/$defs/a%20b"}}, 1).size() == 1);
}

TEST_CASE("2020-12 applies the keywords beside $ref, draft-07 ignores them", "[schema]") {
  const json defs = {{"short", {{"type", "string"}}}};
  CHECK(issuesOf({{"$defs", defs}, {"$ref", "#/$defs/short"}, {"maxLength", 2}}, "abc").size() == 1);
  CHECK(issuesOf({{"definitions", defs}, {"$ref", "#/definitions/short"}, {"maxLength", 2}}, "abc").empty());
}

TEST_CASE("propertyNames of leaf keywords say which key is wrong", "[schema]") {
  CHECK(issuesOf({{"propertyNames", {{"pattern", "^[a-z]+$"}}}}, {{"ok", 1}, {"Bad", 2}}) ==
        Issues{{"Bad", "Invalid key name: Expected a string matching the pattern /^[a-z]+$/"}});
  CHECK(issuesOf({{"propertyNames", false}}, {{"a", 1}}) == Issues{{"a", "Unexpected key"}});
}

TEST_CASE("propertyNames holding definitions besides leaf keywords compiles and still checks", "[schema]") {
  const json schema{{"propertyNames", {{"$defs", {{"short", {{"maxLength", 3}}}}}, {"maxLength", 3}}}};
  CHECK(refusal(schema) == "(compiled)");
  CHECK(issuesOf(schema, {{"abc", 1}}).empty());
  CHECK_FALSE(issuesOf(schema, {{"abcd", 1}}).empty());
}

TEST_CASE("keywords that cannot be enforced are refused, naming the keyword and where", "[schema]") {
  for (const char* keyword : {"unevaluatedProperties", "unevaluatedItems", "$dynamicRef", "$dynamicAnchor",
                              "$recursiveRef", "$recursiveAnchor", "minContains", "maxContains"}) {
    const std::string message = refusal({{"properties", {{"a", {{keyword, false}}}}}});
    CHECK_THAT(message, Catch::Contains(std::string("\"") + keyword + "\"") && Catch::Contains("#/properties/a"));
  }
  CHECK_THAT(refusal({{"definitions", json::object()}, {"prefixItems", json::array()}}), Catch::Contains("draft-07"));
  CHECK_THAT(refusal({{"properties", {{"a", {{"$id", "https://example.com/a"}}}}}}), Catch::Contains("\"$id\""));
}

TEST_CASE("references must be local and resolve, without endless cycles", "[schema]") {
  CHECK_THAT(refusal({{"$ref", "https://example.com/schema.json"}}),
             Catch::Contains("not a location in this document"));
  CHECK_THAT(refusal({{"$ref", "#anchor"}}), Catch::Contains("Unsupported \"$ref\" at #"));
  CHECK_THAT(refusal({{"properties", {{"a", {{"$ref", "#/$defs/missing"}}}}}}),
             Catch::Contains("#/properties/a") && Catch::Contains("points to nothing"));
  CHECK_THAT(refusal({{"x-other", {{"a", 1}}}, {"$ref", "#/x-other/a"}}), Catch::Contains("is not a schema"));
  CHECK_THAT(refusal({{"$defs", {{"a", {{"anyOf", {{{"$ref", "#/$defs/a"}}}}}}}}}), Catch::Contains("Circular"));
  CHECK_THAT(refusal({{"$defs", {{"a", {{"$ref", "#/$defs/b"}}}, {"b", {{"$ref", "#/$defs/a"}}}}}}),
             Catch::Contains("Circular"));
  CHECK(refusal({{"$ref", "#/prefixItems/0"}, {"prefixItems", {{{"type", "string"}}}}}) == "(compiled)");
}

TEST_CASE("malformed schemas are refused with what and where", "[schema]") {
  CHECK(refusal("string") == "Invalid schema at #: expected an object or a boolean, got string");
  CHECK(refusal({{"properties", {{"a", 5}}}}) ==
        "Invalid schema at #/properties/a: expected an object or a boolean, got number");
  CHECK(refusal({{"minLength", -1}}) == "Invalid \"minLength\" at #: expected a non-negative integer");
  CHECK(refusal({{"type", "text"}}).starts_with("Invalid \"type\" at #"));
  CHECK(refusal({{"allOf", json::array()}}).starts_with("Invalid \"allOf\" at #"));
  CHECK_THAT(refusal({{"properties", {{"a", {{"pattern", "(unclosed"}}}}}}),
             Catch::StartsWith("Invalid regular expression in \"pattern\" at #/properties/a"));
  CHECK_THAT(refusal({{"pattern", "(?<=a+)b"}}), Catch::StartsWith("Invalid regular expression in \"pattern\" at #"));
  CHECK(refusal({{"properties", {{"a", {{"patternProperties", {{"[", true}}}}}}}}) ==
        "Invalid regular expression in \"patternProperties\" at #/properties/a: \"[\" (missing terminating ] for "
        "character class at offset 1)");
  CHECK(refusal({{"description", 5}}) == "Invalid \"description\" at #: expected a string");
  // Where they were written, although toold moves the schemas of patternProperties elsewhere.
  CHECK(refusal({{"patternProperties", {{"^a", {{"minLength", -1}}}}}}) ==
        "Invalid \"minLength\" at #/patternProperties/^a: expected a non-negative integer");
  CHECK(refusal({{"properties",
                  {{"p", {{"patternProperties", {{"^a", {{"patternProperties", {{"^b", {{"type", "text"}}}}}}}}}}}}}})
            .starts_with("Invalid \"type\" at #/properties/p/patternProperties/^a/patternProperties/^b:"));
  CHECK(refusal({{"patternProperties", {{"^a", true}}}, {"additionalProperties", {{"maxItems", "x"}}}}) ==
        "Invalid \"maxItems\" at #/additionalProperties: expected a non-negative integer");
}

TEST_CASE("values nested too deep are refused instead of validated", "[schema]") {
  json deep = 1;
  for (int i = 0; i < 300; ++i) deep = json::array({deep});
  const json recursive = {{"$defs", {{"list", {{"items", {{"$ref", "#/$defs/list"}}}}}}}, {"$ref", "#/$defs/list"}};
  CHECK(issuesOf(recursive, deep) == Issues{{"root", "Value is nested more than 256 levels deep"}});
}

TEST_CASE("applyDefaults fills missing properties, through $ref and items", "[schema]") {
  const json schema = {{"$defs", {{"mode", {{"type", "string"}, {"default", "fast"}}}}},
                       {"properties",
                        {{"limit", {{"type", "integer"}, {"default", 10}}},
                         {"mode", {{"$ref", "#/$defs/mode"}, {"description", "How"}}},
                         {"style", {{"allOf", {{{"type", "string"}}, {{"default", "plain"}}}}}},
                         {"options", {{"default", json::object()}, {"properties", {{"color", {{"default", true}}}}}}},
                         {"files", {{"items", {{"properties", {{"encoding", {{"default", "utf-8"}}}}}}}}}}}};
  json value = {{"limit", 3}, {"files", {{{"path", "a"}}, {{"path", "b"}, {"encoding", "latin1"}}}}};
  CompiledSchema::compile(schema)->applyDefaults(value);
  CHECK(value == json{{"limit", 3},
                      {"mode", "fast"},
                      {"style", "plain"},
                      {"options", {{"color", true}}},
                      {"files", {{{"path", "a"}, {"encoding", "utf-8"}}, {{"path", "b"}, {"encoding", "latin1"}}}}});
}

TEST_CASE("one compiled schema validates from 4 threads at once", "[schema]") {
  const auto schema = CompiledSchema::compile(
      {{"type", "object"},
       {"required", {"name"}},
       {"properties",
        {{"name", {{"type", "string"}, {"pattern", "^[a-z]+$"}}}, {"tags", {{"items", {{"enum", {"x", "y"}}}}}}}},
       {"patternProperties", {{"^n", true}}},
       {"additionalProperties", false}});
  const json good = {{"name", "abc"}, {"tags", {"x"}}};
  const json bad = {{"name", "ABC"}, {"tags", {"z"}}, {"extra", 1}};
  const Issues expected = schema->validate(bad);
  REQUIRE(expected.size() == 3);
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 300; ++i)
        if (!schema->validate(good).empty() || schema->validate(bad) != expected) ++failures;
    });
  }
  for (auto& thread : threads) thread.join();
  CHECK(failures == 0);
}

TEST_CASE("the schema cache compiles each distinct schema once and forgets the least recently used", "[schema]") {
  SchemaCache cache(2);
  const json a = {{"type", "string"}}, b = {{"type", "number"}}, c = {{"type", "null"}};
  const auto first = cache.get(a);
  CHECK(cache.get(json::parse(R"({"type":"string"})")) == first);
  const auto second = cache.get(b);
  cache.get(a);  // a is now the most recently used
  cache.get(c);  // evicts b
  CHECK(cache.size() == 2);
  CHECK(cache.get(a) == first);
  CHECK(cache.get(b) != second);
  CHECK_THROWS_AS(cache.get({{"minimum", "one"}}), SchemaError);
  CHECK(cache.size() == 2);
}

TEST_CASE("the schema cache is safe from several threads", "[schema]") {
  SchemaCache cache(8);
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        const auto schema = cache.get({{"maxLength", (i + t) % 12}});
        if (!schema || schema->validate("abc").empty() != ((i + t) % 12 >= 3)) ++failures;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  CHECK(failures == 0);
  CHECK(cache.size() == 8);
}
