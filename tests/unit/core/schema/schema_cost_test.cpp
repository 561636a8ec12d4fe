// What schemas and validations may cost: the size limits of a schema (checked before anything
// recurses into it), the validation budget (exponential schemas, cancellation), and the keywords
// that were quadratic (uniqueItems, required).
#include "core/schema/json_schema.h"
#include "core/schema/schema_cache.h"
#include "core/schema/schema_limits.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <thread>

using toold::core::CancellationSource;
using toold::core::CompiledSchema;
using toold::core::json;
using toold::core::SchemaCache;
using toold::core::SchemaError;
using toold::core::SchemaLimits;
using toold::core::ValidationBudget;
using Status = CompiledSchema::Checked::Status;

namespace {

/// `keyword` wrapped around {} `depth` times; built without recursion, however deep.
json nestedSchema(const std::string& keyword, std::size_t depth) {
  json schema = json::object();
  for (std::size_t i = 0; i < depth; ++i) {
    json outer = json::object();
    if (keyword == "properties")
      outer["properties"]["a"] = std::move(schema);
    else if (keyword == "allOf")
      outer["allOf"] = json::array({std::move(schema)});
    else
      outer[keyword] = std::move(schema);
    schema = std::move(outer);
  }
  return schema;
}

std::string refusal(const json& schema) {
  try {
    CompiledSchema::compile(schema);
  } catch (const SchemaError& error) {
    return error.what();
  }
  return "(compiled)";
}

/// Level i is an anyOf of two branches, each an allOf of level i+1 and something else: valijson
/// follows both branches and both allOf entries, so each level doubles the work.
json exponentialSchema(int levels) {
  json defs = json::object();
  for (int i = 0; i < levels; ++i) {
    const std::string next = "#/$defs/l" + std::to_string(i + 1);
    defs["l" + std::to_string(i)] = {
        {"anyOf",
         {{{"allOf", {{{"$ref", next}}, {{"$ref", next}}}}}, {{"allOf", {{{"$ref", next}}, {{"type", "string"}}}}}}}};
  }
  defs["l" + std::to_string(levels)] = {{"type", "object"}, {"required", {"zz"}}};
  return {{"type", "object"}, {"properties", {{"x", {{"$ref", "#/$defs/l0"}}}}}, {"$defs", defs}};
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

TEST_CASE("schemas nested deeper than the limit are refused, naming it, without recursing", "[schema][cost]") {
  // The document itself is level 1; each "items" adds one.
  CHECK(refusal(nestedSchema("items", SchemaLimits::kMaxDepth - 1)) == "(compiled)");
  const std::string limit = std::to_string(SchemaLimits::kMaxDepth);
  for (const char* keyword : {"items", "properties", "allOf", "not"}) {
    INFO(keyword);
    CHECK(refusal(nestedSchema(keyword, SchemaLimits::kMaxDepth)).find("nested more than " + limit + " levels") !=
          std::string::npos);
    // 10,000 froze compilation for 20 s then overflowed the stack; 100,000 crashed in a copy.
    for (const std::size_t depth : {10'000, 100'000}) {
      const json deep = nestedSchema(keyword, depth);
      const auto start = std::chrono::steady_clock::now();
      CHECK(refusal(deep).find("toold accepts at most " + limit) != std::string::npos);
      SchemaCache cache;
      CHECK_THROWS_AS(cache.get(deep), SchemaError);
      CHECK(secondsSince(start) < 10.0);  // 13 s and over a minute before; loose for loaded and sanitizer builds
    }
  }
}

TEST_CASE("schemas with too many values or too many bytes of strings are refused", "[schema][cost]") {
  json values = json::array();
  for (std::size_t i = 0; i < SchemaLimits::kMaxValues; ++i) values.push_back(i);
  CHECK(refusal({{"enum", values}}).find("more than " + std::to_string(SchemaLimits::kMaxValues) + " JSON values") !=
        std::string::npos);
  values.erase(values.end() - 2, values.end());
  CHECK(refusal({{"enum", values}}) == "(compiled)");
  const std::string text(SchemaLimits::kMaxStringBytes + 1, 'a');
  CHECK(refusal({{"description", text}}).find("MiB") != std::string::npos);
}

TEST_CASE("an exponential schema stops at the budget with a clear issue", "[schema][cost]") {
  const auto schema = CompiledSchema::compile(exponentialSchema(40));
  const json value = {{"x", json::object()}};
  auto start = std::chrono::steady_clock::now();
  const auto checked = schema->check(value, ValidationBudget{});
  CHECK(checked.status == Status::OverBudget);
  REQUIRE(checked.issues.size() == 1);
  CHECK(checked.issues[0].path == "root");
  CHECK(checked.issues[0].message.find("too costly") != std::string::npos);
  CHECK(secondsSince(start) <= ValidationBudget::kDefaultTime.count() / 1000.0 + 7.0);  // the wall-clock bound, plus load
  // The same through validate(), and a small budget stops sooner.
  CHECK(schema->validate(value) == checked.issues);
  start = std::chrono::steady_clock::now();
  CHECK(schema->check(value, ValidationBudget{10'000, ValidationBudget::kDefaultTime, {}}).status == Status::OverBudget);
  CHECK(secondsSince(start) < 5.0);  // unbudgeted, this schema runs for years
  // A shallow instance of the same shape fits: the budget is not a refusal of the schema.
  CHECK(CompiledSchema::compile(exponentialSchema(5))->check({{"x", {{"zz", 1}}}}, ValidationBudget{}).status ==
        Status::Valid);
}

TEST_CASE("defaults are filled within the same budget", "[schema][cost]") {
  json schema = exponentialSchema(40);
  schema["$defs"]["l40"]["properties"]["d"] = {{"default", 1}};
  const auto compiled = CompiledSchema::compile(schema);
  json value = {{"x", json::object()}};
  // Only the step budget can stop it: the clock's is far away. (An unmetered fill of 40 levels
  // would run for years, so a generous bound still tells a hang from a stop.)
  const auto start = std::chrono::steady_clock::now();
  CHECK(compiled->decode(value, ValidationBudget{100'000, std::chrono::seconds(120), {}}).status == Status::OverBudget);
  CHECK(secondsSince(start) < 60.0);
}

TEST_CASE("a cancelled validation stops soon", "[schema][cost]") {
  const auto schema = CompiledSchema::compile(exponentialSchema(40));
  CancellationSource source;
  ValidationBudget budget;
  budget.steps = ~std::uint64_t{0};
  budget.time = std::chrono::hours(1);
  budget.cancellation = source.token();
  std::thread canceller([&source] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    source.cancel("test");
  });
  const auto start = std::chrono::steady_clock::now();
  const auto checked = schema->check({{"x", json::object()}}, budget);
  const double took = secondsSince(start);
  canceller.join();
  CHECK(checked.status == Status::Cancelled);
  CHECK(took < 1.0);
}

TEST_CASE("uniqueItems is linear: 20,000 items in well under a second", "[schema][cost]") {
  const auto schema = CompiledSchema::compile({{"type", "array"}, {"uniqueItems", true}});
  json distinct = json::array(), equal = json::array();
  for (int i = 0; i < 20'000; ++i) {
    distinct.push_back({{"n", i}, {"s", std::to_string(i)}});
    equal.push_back(7);
  }
  const auto start = std::chrono::steady_clock::now();
  CHECK(schema->validate(distinct).empty());
  const auto issues = schema->validate(equal);
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].message == "Expected unique items; [0] and [1] are equal");
  CHECK(secondsSince(start) < 10.0);  // 13 s and over a minute before; loose for loaded and sanitizer builds
}

TEST_CASE("uniqueItems compares numbers by value, objects by members", "[schema][cost]") {
  const auto schema = CompiledSchema::compile({{"uniqueItems", true}});
  CHECK(schema->validate({1, 2, 1.0}).at(0).message == "Expected unique items; [0] and [2] are equal");
  CHECK(schema->validate({json{{"a", 1}, {"b", {1, 2}}}, json{{"b", {1, 2.0}}, {"a", 1.0}}}).size() == 1);
  CHECK(schema->validate({json{{"a", 1}}, json{{"a", 2}}, json{1}, json{"1"}, true, 1, nullptr}).empty());
  // Past 2^53 integers stay exact: 2^53 and 2^53 + 1 differ, though their doubles are equal.
  CHECK(schema->validate({std::int64_t{9007199254740992}, std::int64_t{9007199254740993}}).empty());
  CHECK(schema->validate({std::uint64_t{18446744073709551615u}, std::uint64_t{18446744073709551615u}}).size() == 1);
}

TEST_CASE("required with 100,000 keys is checked in well under a second", "[schema][cost]") {
  json keys = json::array();
  json present = json::object();
  for (int i = 0; i < 100'000; ++i) {
    keys.push_back("k" + std::to_string(i));
    present["k" + std::to_string(i)] = i;
  }
  const auto schema = CompiledSchema::compile({{"type", "object"}, {"required", keys}});
  const auto start = std::chrono::steady_clock::now();
  CHECK(schema->validate(present).empty());
  const auto issues = schema->validate(json::object());
  CHECK(issues.size() == 100);  // kept at most
  CHECK(issues.at(0).message == "Missing key");
  CHECK(secondsSince(start) < 10.0);  // 13 s and over a minute before; loose for loaded and sanitizer builds
}

TEST_CASE("long chains of $ref are refused at compile time or stopped by the budget, never a crash",
          "[schema][cost]") {
  // 10,000 links crashed toold in the compiler (valijson's parser follows each "$ref" recursively).
  for (const char* shape : {"plain", "properties", "allOf"}) {
    INFO(shape);
    const int links = 20'000;
    json defs = json::object();
    for (int i = 0; i < links; ++i) {
      const json next = {{"$ref", "#/$defs/l" + std::to_string(i + 1)}};
      const std::string name = "l" + std::to_string(i);
      if (std::string(shape) == "plain")
        defs[name] = next;
      else if (std::string(shape) == "properties")
        defs[name] = {{"properties", {{"x", next}}}};
      else
        defs[name] = {{"allOf", {next, {{"type", "object"}}}}};
    }
    defs["l" + std::to_string(links)] = {{"type", "object"}};
    const json schema = {{"$defs", defs}, {"$ref", "#/$defs/l0"}};
    std::shared_ptr<const CompiledSchema> compiled;
    try {
      compiled = CompiledSchema::compile(schema);
    } catch (const SchemaError& error) {
      CHECK(std::string(error.what()).find("\"$ref\"s") != std::string::npos);
      continue;
    }
    // Compiled: validating must not overflow either.
    const auto checked = compiled->check(json::object(), ValidationBudget{});
    CHECK(checked.status != Status::Cancelled);
  }
}

TEST_CASE("a value validated through a long chain of recursive references stops before the stack does",
          "[schema][cost]") {
  // 100 same-value links (200 schemas, under the chain limit) that descend one level at the end, back to the
  // start: a value 250 levels deep makes valijson recurse 50,000 subschemas deep. (Compiling a
  // longer chain can meet the compiler's stack guard first in a sanitizer build, whose frames are
  // larger.)
  json defs = json::object();
  const int links = 100;
  for (int i = 0; i < links; ++i)
    defs["l" + std::to_string(i)] = {{"allOf", {{{"$ref", "#/$defs/l" + std::to_string(i + 1)}}}}};
  defs["l" + std::to_string(links)] = {{"type", "object"}, {"properties", {{"a", {{"$ref", "#/$defs/l0"}}}}}};
  const auto schema = CompiledSchema::compile({{"$defs", defs}, {"$ref", "#/$defs/l0"}});
  json value = json::object();
  for (int i = 0; i < 250; ++i) value = json{{"a", std::move(value)}};
  const auto checked = schema->check(value, ValidationBudget{});
  CHECK(checked.status == Status::OverBudget);
  // The chain limit itself: one link more than it allows is refused at compile time.
  json longer = json::object();
  for (int i = 0; i <= static_cast<int>(SchemaLimits::kMaxChain); ++i)
    longer["l" + std::to_string(i)] = {{"allOf", {{{"$ref", "#/$defs/l" + std::to_string(i + 1)}}}}};
  longer["l" + std::to_string(SchemaLimits::kMaxChain + 1)] = json::object();
  CHECK(refusal({{"$defs", longer}, {"$ref", "#/$defs/l0"}}).find("chain more than") != std::string::npos);
}
