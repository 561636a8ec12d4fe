// The benchmark client's reading of replies: it skips what it does not need, and must still find
// the members that come after strings full of escapes.
#include "tests/bench/message_scan.h"

#include <catch2/catch.hpp>

#include <string>

using toold::bench::memberText;
using toold::bench::scanMessage;

TEST_CASE("bench message scan: members after strings with escaped quotes and backslashes", "[bench]") {
  const std::string body =
      R"({"id":7,"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"a \"quoted\" \\ path\\\\"}],)"
      R"("note":"ends in a backslash \\","status":"completed"}})";
  const auto shape = scanMessage(body);
  REQUIRE(shape.valid);
  CHECK(shape.id == 7);
  CHECK(shape.hasResult);
  CHECK_FALSE(shape.hasError);
  CHECK(memberText(shape.result, "status") == R"("completed")");
  CHECK(memberText(shape.result, "note") == R"("ends in a backslash \\")");
  CHECK_FALSE(memberText(shape.result, "missing"));
}

TEST_CASE("bench message scan: a string that never closes is no message", "[bench]") {
  CHECK_FALSE(scanMessage(R"({"id":1,"result":"open \")").valid);
  CHECK_FALSE(scanMessage(R"({"id":1,"result":"open \\\"})").valid);
  CHECK(scanMessage(R"({"id":1,"result":"closed \\"})").valid);
}
