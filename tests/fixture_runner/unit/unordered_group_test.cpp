// `<*` groups: any order, one message per pattern, captures consistent across the group.
#include "unordered_group.h"

#include <catch2/catch.hpp>

using nlohmann::json;
using toold::fixture::Captures;
using toold::fixture::matchUnordered;

namespace {

std::vector<json> list(std::initializer_list<const char*> texts) {
  std::vector<json> out;
  for (const char* text : texts) out.push_back(json::parse(text));
  return out;
}

} // namespace

TEST_CASE("a group matches messages in any order", "[group]") {
  Captures captures;
  auto result = matchUnordered(list({R"({"id":1})", R"({"id":2})"}), list({R"({"id":2})", R"({"id":1})"}), captures);
  REQUIRE(result.matched);
  CHECK(result.messageFor == std::vector<std::size_t>{1, 0});
}

TEST_CASE("each message is used once", "[group]") {
  Captures captures;
  auto result = matchUnordered(list({R"({"id":1})", R"({"id":1})"}), list({R"({"id":1})", R"({"id":2})"}), captures);
  CHECK_FALSE(result.matched);
  CHECK(result.unmatchedPatterns.empty()); // each pattern matches a message; no pairing matches both
}

TEST_CASE("a general pattern does not steal the message a specific one needs", "[group]") {
  Captures captures;
  auto result = matchUnordered(list({R"({"id":"$any"})", R"({"id":1,"result":{}})"}),
                               list({R"({"id":1,"result":{}})", R"({"id":2,"error":{}})"}), captures);
  REQUIRE(result.matched);
  CHECK(result.messageFor == std::vector<std::size_t>{1, 0});
}

TEST_CASE("the patterns that match nothing are named", "[group]") {
  Captures captures;
  auto result = matchUnordered(list({R"({"id":1})", R"({"id":3})"}), list({R"({"id":1})", R"({"id":2})"}), captures);
  CHECK_FALSE(result.matched);
  CHECK(result.unmatchedPatterns == std::vector<std::size_t>{1});
}

TEST_CASE("captures are kept from the assignment that matched", "[group]") {
  Captures captures;
  auto result = matchUnordered(list({R"({"method":"a","id":"$capture:x"})", R"({"method":"b","id":"$capture:y"})"}),
                               list({R"({"method":"b","id":20})", R"({"method":"a","id":10})"}), captures);
  REQUIRE(result.matched);
  CHECK(captures.at("x") == 10);
  CHECK(captures.at("y") == 20);
}

TEST_CASE("a later pattern may refer to an earlier pattern's capture", "[group]") {
  Captures captures;
  // The first assignment tried (pattern 0 -> message 0) captures 1, which pattern 1 then rejects:
  // the search must back out of it, captures included.
  auto result = matchUnordered(list({R"({"id":"$capture:x"})", R"({"echo":"${x}"})"}),
                               list({R"({"id":1})", R"({"id":2,"echo":2})"}), captures);
  CHECK_FALSE(result.matched);
  CHECK(captures.empty());
  result = matchUnordered(list({R"({"id":"$capture:x"})", R"({"echo":"${x}"})"}),
                          list({R"({"id":5,"echo":0})", R"({"id":2,"echo":5})"}), captures);
  REQUIRE(result.matched);
  CHECK(captures.at("x") == 5);
}
