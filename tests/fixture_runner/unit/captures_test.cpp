// `${NAME}` in sends: whole-string references keep the captured type, embedded ones use its text.
#include "captures.h"

#include <catch2/catch.hpp>

using namespace toold::fixture;
using nlohmann::json;

TEST_CASE("a whole-string reference is replaced by the value with its type", "[captures]") {
  Captures captures{{"ask", "toold-1"}, {"n", 7}, {"obj", json{{"a", 1}}}};
  CHECK(substituteCaptures(json::parse(R"({"id":"${ask}"})"), captures) == json::parse(R"({"id":"toold-1"})"));
  CHECK(substituteCaptures(json::parse(R"({"id":"${n}"})"), captures) == json::parse(R"({"id":7})"));
  CHECK(substituteCaptures(json::parse(R"([["${obj}"]])"), captures) == json::parse(R"([[{"a":1}]])"));
}

TEST_CASE("references inside longer strings use the value's text", "[captures]") {
  Captures captures{{"workspace", "/w"}, {"n", 7}};
  CHECK(substituteCaptures(json("${workspace}/a"), captures) == "/w/a");
  CHECK(substituteCaptures(json("n=${n}, again ${n}"), captures) == "n=7, again 7");
  CHECK(interpolate("--directory=${workspace}", captures) == "--directory=/w");
}

TEST_CASE("text that is not a reference is left alone", "[captures]") {
  Captures captures;
  CHECK(substituteCaptures(json("${"), captures) == "${");
  CHECK(substituteCaptures(json("${not a name}"), captures) == "${not a name}");
  CHECK(substituteCaptures(json("$x {y}"), captures) == "$x {y}");
  CHECK(substituteCaptures(json::parse(R"({"${key}":1})"), captures) == json::parse(R"({"${key}":1})"));
}

TEST_CASE("an unknown reference is an error naming it", "[captures]") {
  Captures captures;
  CHECK_THROWS_WITH(substituteCaptures(json("${missing}"), captures), Catch::Contains("${missing} is not captured"));
}

TEST_CASE("interpolateKnown leaves references to names not captured as written", "[captures]") {
  Captures captures{{"outside", "/o"}};
  CHECK(interpolateKnown("${outside}/a -> ${HOME}/b ${", captures) == "/o/a -> ${HOME}/b ${");
}

TEST_CASE("references are found in every string", "[captures]") {
  auto names = referencedCaptures(json::parse(R"({"a":["${x}",{"b":"p${y}q"}],"c":"${z"})"));
  CHECK(names == std::set<std::string>{"x", "y"});
}
