// Bounded JSON: the depth scan, the parse that refuses too-deep texts and turns every exception into
// a refusal, and the renderer that walks any depth without recursion.
#include "protocol/bounded_json.h"

#include <catch2/catch.hpp>

#include <string>

using namespace toold::protocol;
using nlohmann::json;

namespace {

std::string nestedArrays(std::size_t depth) { return std::string(depth, '[') + "0" + std::string(depth, ']'); }

// Built by moves: an initializer list would copy, and a copy recurses once per level.
json deepValue(std::size_t depth) {
  json value = 0;
  for (std::size_t i = 0; i < depth; ++i) {
    json outer = json::array();
    outer.push_back(std::move(value));
    value = std::move(outer);
  }
  return value;
}

} // namespace

TEST_CASE("the depth scan counts brackets outside strings only", "[bounded_json]") {
  CHECK(jsonNestingDepth("0", 10) == 0);
  CHECK(jsonNestingDepth("[]", 10) == 1);
  CHECK(jsonNestingDepth(R"({"a":[{"b":[]}],"c":{}})", 10) == 4);
  CHECK(jsonNestingDepth(R"(["[[[[", "\"[[[", "\\", {}])", 10) == 2);
  CHECK(jsonNestingDepth(nestedArrays(512), 512) == 512);
  std::size_t at = 0;
  CHECK(jsonNestingDepth(nestedArrays(100000), 512, &at) == 513);
  CHECK(at == 512);
}

TEST_CASE("a text at the depth limit parses, one level more is refused before parsing", "[bounded_json]") {
  auto atLimit = parseBounded(nestedArrays(kMaxJsonDepth));
  REQUIRE(atLimit);
  CHECK(atLimit.value.is_array());

  for (std::size_t depth : {kMaxJsonDepth + 1, std::size_t{100000}}) {
    auto refused = parseBounded(nestedArrays(depth));
    REQUIRE_FALSE(refused);
    CHECK(refused.refusal->kind == JsonRefusal::Kind::TooDeep);
    CHECK(refused.refusal->message == "nested deeper than 512 levels (at byte 512)");
    CHECK(refused.refusal->byte == std::optional<std::size_t>(512));
    CHECK(refused.value.is_null());
  }
  auto objects = parseBounded(R"({"a":{"a":{"a":1}}})", 2);
  REQUIRE_FALSE(objects);
  CHECK(objects.refusal->byte == std::optional<std::size_t>(10));
}

TEST_CASE("numbers beyond double range are refused, not thrown", "[bounded_json]") {
  for (std::string text : {std::string("[1e999]"), std::string("-1e400"),
                           std::string(R"({"jsonrpc":"2.0","id":1e999,"method":"ping"})"),
                           "1" + std::string(100000, '7')}) {
    INFO(text.substr(0, 60));
    BoundedParse<json> parsed;
    REQUIRE_NOTHROW(parsed = parseBounded(text));
    REQUIRE_FALSE(parsed);
    CHECK(parsed.refusal->kind == JsonRefusal::Kind::Syntax);
    CHECK_THAT(parsed.refusal->message, Catch::Contains("number overflow"));
    // The message quotes the token; a 100,000-digit token is cut.
    CHECK(parsed.refusal->message.size() <= 310);
  }
  auto ordered = parseBoundedOrdered(R"({"b":[1e999]})");
  REQUIRE_FALSE(ordered);
  CHECK_THAT(ordered.refusal->message, Catch::Contains("number overflow"));
}

TEST_CASE("syntax errors are refused with nlohmann's reason and position", "[bounded_json]") {
  auto parsed = parseBounded(R"({"a": tru})");
  REQUIRE_FALSE(parsed);
  CHECK(parsed.refusal->kind == JsonRefusal::Kind::Syntax);
  CHECK_THAT(parsed.refusal->message, Catch::StartsWith("parse error at line 1, column 10: syntax error"));
  CHECK(parsed.refusal->byte == std::optional<std::size_t>(9)); // the "}" where nlohmann noticed
  CHECK_FALSE(parseBounded(""));
  // nlohmann alone would stop at the NUL and accept the 1.
  auto nul = parseBounded(std::string("1\0[[[", 5));
  REQUIRE_FALSE(nul);
  CHECK(nul.refusal->message == "parse error at byte 1: a NUL byte is not JSON");
  CHECK_FALSE(parseBounded(std::string("[\"a\0\"]", 6)));
  CHECK_FALSE(parseBounded("[1,"));
}

TEST_CASE("within its limits dumpBounded renders as dump does", "[bounded_json]") {
  const json value = json::parse(R"({"b":[1,2.5,{"x":null}],"a":"é\n","c":{},"d":[],"e":true})");
  CHECK(dumpBounded(value) == value.dump());
  CHECK(dumpBounded(value, {.indent = 2}) == value.dump(2));
  CHECK(dumpBounded(json("text")) == "\"text\"");
  CHECK(dumpBounded(json::array()) == "[]");
}

TEST_CASE("dumpBounded marks containers deeper than its depth limit", "[bounded_json]") {
  CHECK(dumpBounded(json::parse(R"([[[1]],{"a":{"b":2}}])"), {.maxDepth = 2}) == R"([[[...]],{"a":{...}}])");
  CHECK(dumpBounded(json::parse(R"([[[]]])"), {.maxDepth = 2}) == "[[[]]]");
}

TEST_CASE("dumpBounded renders a value 100,000 levels deep without recursion", "[bounded_json]") {
  const json deep = deepValue(100000);
  const std::string text = dumpBounded(deep);
  CHECK(text == std::string(32, '[') + "[...]" + std::string(32, ']'));
  const std::string wide = dumpBounded(deep, {.maxDepth = 200000, .maxBytes = 1000});
  CHECK(wide == std::string(1000, '[') + " ...(cut at 1000 bytes)");
}

TEST_CASE("dumpBounded cuts at its size limit, never inside a character", "[bounded_json]") {
  json many = json::array();
  for (int i = 0; i < 10000; ++i) many.push_back(i);
  const std::string text = dumpBounded(many, {.maxBytes = 100});
  CHECK(text.starts_with("[0,1,2,3,"));
  CHECK(text.ends_with(" ...(cut at 100 bytes)"));
  CHECK(text.size() == 100 + std::string(" ...(cut at 100 bytes)").size());

  // A long string is cut before it is escaped; "é" is two bytes, and byte 100 is its second.
  const std::string cut = dumpBounded(json(std::string(98, 'e') + "é" + std::string(1000000, 'e')), {.maxBytes = 100});
  CHECK(cut == "\"" + std::string(98, 'e') + " ...(cut at 100 bytes)");
  CHECK(dumpBounded(json(std::string("a") + "ééééé"), {.maxBytes = 4}) == "\"a\xC3\xA9 ...(cut at 4 bytes)");
}
