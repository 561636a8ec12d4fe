// The structural matcher: subsets, $exact, arrays, the special forms and captures.
#include "json_pattern.h"

#include <catch2/catch.hpp>

using nlohmann::json;
using toold::fixture::Captures;
using toold::fixture::matchPattern;
using toold::fixture::PatternError;
using toold::fixture::validatePattern;

namespace {

bool matches(const char* pattern, const char* actual) {
  Captures captures;
  return matchPattern(json::parse(pattern), json::parse(actual), captures).matched;
}

std::string mismatch(const char* pattern, const char* actual) {
  Captures captures;
  return matchPattern(json::parse(pattern), json::parse(actual), captures).mismatch;
}

} // namespace

TEST_CASE("objects match as subsets", "[pattern]") {
  CHECK(matches(R"({"id":1})", R"({"jsonrpc":"2.0","id":1,"result":{}})"));
  CHECK(matches(R"({})", R"({"a":1})"));
  CHECK(matches(R"({"result":{"a":1}})", R"({"result":{"a":1,"b":2}})"));
  CHECK_FALSE(matches(R"({"id":1,"error":{}})", R"({"id":1,"result":{}})"));
  CHECK(mismatch(R"({"id":1,"error":{}})", R"({"id":1,"result":{}})") == "at error: the key is missing");
  CHECK_FALSE(matches(R"({"a":1})", R"([1])"));
}

TEST_CASE("$exact objects allow no other keys", "[pattern]") {
  CHECK(matches(R"({"$exact":{"a":1,"b":"$any"}})", R"({"a":1,"b":[2]})"));
  CHECK_FALSE(matches(R"({"$exact":{"a":1}})", R"({"a":1,"b":2})"));
  CHECK(mismatch(R"({"$exact":{"a":1}})", R"({"a":1,"b":2})") ==
        "at b: unexpected key (the pattern is $exact), value 2");
  // Nested objects are subsets again unless they are $exact themselves.
  CHECK(matches(R"({"$exact":{"a":{"x":1}}})", R"({"a":{"x":1,"y":2}})"));
  CHECK_FALSE(matches(R"({"$exact":{"a":{"$exact":{"x":1}}}})", R"({"a":{"x":1,"y":2}})"));
  CHECK(matches(R"({"$exact":{}})", R"({})"));
  CHECK_FALSE(matches(R"({"$exact":{}})", R"({"a":null})"));
}

TEST_CASE("arrays match element-wise with the same length", "[pattern]") {
  CHECK(matches(R"([1,{"a":2}])", R"([1,{"a":2,"b":3}])"));
  CHECK_FALSE(matches(R"([1,2])", R"([1,2,3])"));
  CHECK_FALSE(matches(R"([1,2,3])", R"([1,2])"));
  CHECK_FALSE(matches(R"([2,1])", R"([1,2])"));
  CHECK(matches(R"([])", R"([])"));
  CHECK(mismatch(R"({"r":[1,{"a":2}]})", R"({"r":[1,{"a":3}]})") == "at r[1].a: expected 2, got 3");
  CHECK(mismatch(R"([1])", R"([1,2])") == "at the top level: expected an array of 1 elements, got 2: [1,2]");
}

TEST_CASE("integers, fractions and strings are different values", "[pattern]") {
  CHECK(matches(R"({"id":1})", R"({"id":1})"));
  CHECK_FALSE(matches(R"({"id":1})", R"({"id":"1"})"));
  CHECK_FALSE(matches(R"({"id":"1"})", R"({"id":1})"));
  CHECK_FALSE(matches(R"({"id":1})", R"({"id":1.0})"));
  CHECK(matches(R"({"id":1.5})", R"({"id":1.5})"));
  CHECK(matches(R"({"id":9007199254740993})", R"({"id":9007199254740993})"));
  CHECK_FALSE(matches(R"({"id":9007199254740993})", R"({"id":9007199254740992})"));
  CHECK(matches(R"({"id":-1})", R"({"id":-1})"));
  CHECK(matches(R"({"id":null})", R"({"id":null})"));
  CHECK_FALSE(matches(R"({"id":null})", R"({"id":0})"));
  CHECK_FALSE(matches(R"({"ok":true})", R"({"ok":1})"));
  CHECK(mismatch(R"({"id":1})", R"({"id":"1"})") == R"(at id: expected 1, got "1")");
}

TEST_CASE("$any matches any present value", "[pattern]") {
  CHECK(matches(R"({"id":"$any"})", R"({"id":null})"));
  CHECK(matches(R"({"id":"$any"})", R"({"id":{"x":[]}})"));
  CHECK_FALSE(matches(R"({"id":"$any"})", R"({})"));
}

TEST_CASE("$absent requires the key to be missing", "[pattern]") {
  CHECK(matches(R"({"error":"$absent"})", R"({"result":1})"));
  CHECK_FALSE(matches(R"({"error":"$absent"})", R"({"error":null})"));
  CHECK(matches(R"({"$exact":{"id":1,"error":"$absent"}})", R"({"id":1})"));
  CHECK_THROWS_AS(validatePattern(json::parse(R"(["$absent"])")), PatternError);
  CHECK_THROWS_AS(validatePattern(json("$absent")), PatternError);
}

TEST_CASE("$re: searches strings with PCRE2", "[pattern]") {
  CHECK(matches(R"({"m":"$re:not init"})", R"({"m":"Server not initialized"})"));
  CHECK_FALSE(matches(R"({"m":"$re:^not"})", R"({"m":"Server not initialized"})"));
  CHECK(matches(R"({"m":"$re:^Server .*d$"})", R"({"m":"Server not initialized"})"));
  CHECK(matches(R"({"m":"$re:(?i)SERVER"})", R"({"m":"server"})"));
  CHECK(matches(R"({"m":"$re:\\d{4}-\\d{2}"})", R"({"m":"2025-11"})"));
  CHECK_FALSE(matches(R"({"m":"$re:1"})", R"({"m":1})"));
  CHECK(matches(R"({"m":"$re:é"})", R"({"m":"café"})"));
  CHECK_THROWS_WITH(validatePattern(json::parse(R"({"m":"$re:(unclosed"})")),
                    Catch::Contains("at m: invalid regular expression /(unclosed/"));
}

TEST_CASE("$capture remembers a value and ${name} refers to it", "[pattern]") {
  Captures captures;
  REQUIRE(matchPattern(json::parse(R"({"id":"$capture:ask","method":"ping"})"),
                       json::parse(R"({"id":"toold-1","method":"ping"})"), captures));
  CHECK(captures.at("ask") == "toold-1");
  CHECK(matchPattern(json::parse(R"({"id":"${ask}"})"), json::parse(R"({"id":"toold-1"})"), captures));
  CHECK_FALSE(matchPattern(json::parse(R"({"id":"${ask}"})"), json::parse(R"({"id":"toold-2"})"), captures));

  // The capture keeps its type: 7 is not "7".
  REQUIRE(matchPattern(json::parse(R"({"n":"$capture:n"})"), json::parse(R"({"n":7})"), captures));
  CHECK_FALSE(matchPattern(json::parse(R"({"n":"${n}"})"), json::parse(R"({"n":"7"})"), captures));
  CHECK(matchPattern(json::parse(R"({"n":"${n}"})"), json::parse(R"({"n":7})"), captures));

  // Inside a longer string the capture's text is used.
  captures["workspace"] = "/tmp/w";
  CHECK(matchPattern(json::parse(R"({"p":"${workspace}/a.txt"})"), json::parse(R"({"p":"/tmp/w/a.txt"})"), captures));
  CHECK(matchPattern(json::parse(R"({"p":"n=${n}"})"), json::parse(R"({"p":"n=7"})"), captures));
}

TEST_CASE("a failed match leaves the captures alone", "[pattern]") {
  Captures captures;
  CHECK_FALSE(matchPattern(json::parse(R"({"id":"$capture:x","method":"ping"})"),
                           json::parse(R"({"id":1,"method":"other"})"), captures));
  CHECK(captures.empty());
}

TEST_CASE("an unknown capture reference is a mismatch, not a crash", "[pattern]") {
  CHECK(mismatch(R"({"id":"${nope}"})", R"({"id":1})") == "at id: ${nope} is not captured yet");
}

TEST_CASE("method names starting with $/ are plain strings", "[pattern]") {
  CHECK(matches(R"({"method":"$/cancelRequest"})", R"({"method":"$/cancelRequest"})"));
  CHECK_NOTHROW(validatePattern(json::parse(R"({"method":"$/test/sleep"})")));
}

TEST_CASE("misused special forms are rejected when the fixture is read", "[pattern]") {
  CHECK_THROWS_WITH(validatePattern(json::parse(R"({"a":"$anyy"})")),
                    Catch::Contains("unknown pattern form \"$anyy\""));
  CHECK_THROWS_WITH(validatePattern(json::parse(R"({"$exact":{},"b":1})")), Catch::Contains("must be the only key"));
  CHECK_THROWS_WITH(validatePattern(json::parse(R"({"$exact":[1]})")), Catch::Contains("must be an object"));
  CHECK_THROWS_WITH(validatePattern(json::parse(R"({"a":"$capture:1x"})")), Catch::Contains("capture name"));
  CHECK_THROWS_WITH(validatePattern(json::parse(R"({"a":{"b":["$re:["]}})")), Catch::Contains("at a.b[0]:"));
}
