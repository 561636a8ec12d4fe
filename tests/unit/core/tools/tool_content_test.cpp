#include "core/tools/tool_content.h"

#include <catch2/catch.hpp>

using namespace toold::core;

namespace {
json text(const std::string& s) { return json{{"type", "text"}, {"text", s}}; }
} // namespace

TEST_CASE("content: a string becomes one text item", "[content]") {
  CHECK(normalizeContent(json("hello"), std::nullopt) == json::array({text("hello")}));
}

TEST_CASE("content: a non-empty array of valid items is kept as it is", "[content]") {
  json items = json::array({text("a"), json{{"type", "file"}, {"uri", "file:///x.png"}, {"mime", "image/png"}}});
  CHECK(normalizeContent(items, json{{"x", 1}}) == items);
}

TEST_CASE("content: none becomes the encoded output, strings verbatim and other JSON compact", "[content]") {
  CHECK(normalizeContent(std::nullopt, json("plain")) == json::array({text("plain")}));
  CHECK(normalizeContent(std::nullopt, json{{"b", 1}, {"a", "x y"}}) == json::array({text(R"({"a":"x y","b":1})")}));
  CHECK(normalizeContent(json::array(), json(42)) == json::array({text("42")}));
  CHECK(normalizeContent(json(""), json(true)) == json::array({text("true")}));
}

TEST_CASE("content: neither content nor output, or a bad item, is a content error", "[content]") {
  CHECK_THROWS_AS(normalizeContent(std::nullopt, std::nullopt), ContentError);
  CHECK_THROWS_WITH(normalizeContent(json::array({json{{"type", "image"}}}), std::nullopt),
                    Catch::Contains("unknown type \"image\""));
  CHECK_THROWS_WITH(normalizeContent(json::array({json{{"type", "text"}}}), std::nullopt),
                    Catch::Contains("content[0]"));
  CHECK_THROWS_AS(normalizeContent(json::array({json{{"type", "file"}, {"uri", "x"}}}), std::nullopt), ContentError);
  CHECK_THROWS_AS(normalizeContent(json(42), std::nullopt), ContentError);
}

TEST_CASE("metadata: an object of at most 16 KiB is kept, anything else is a problem", "[content]") {
  CHECK(metadataProblem(json{{"a", 1}}).empty());
  CHECK_FALSE(metadataProblem(json::array()).empty());
  CHECK_FALSE(metadataProblem(json("x")).empty());
  json big{{"blob", std::string(kMaxMetadataBytes, 'x')}};
  CHECK_THAT(metadataProblem(big), Catch::Contains("the limit is 16384"));
  json fits{{"b", std::string(kMaxMetadataBytes - 8, 'x')}}; // {"b":"…"} is 8 bytes of syntax
  CHECK(metadataProblem(fits).empty());
}
