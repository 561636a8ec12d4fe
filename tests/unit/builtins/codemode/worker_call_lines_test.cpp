// The per-call lines between toold and a Code Mode worker: JSON that any reader reads, in a fixed
// form that the worker reads without a parser.
#include "builtins/codemode/worker_call_lines.h"

#include <catch2/catch.hpp>

using namespace toold::codemode;
using json = nlohmann::json;

TEST_CASE("worker call lines: a call line is one JSON object with the input as it was written", "[codemode]") {
  const std::string line = callLine(42, "git.hub \"x\"", R"({"a":[1,{"b":"\u00e9"}]})");
  REQUIRE(line.back() == '\n');
  const json message = json::parse(line);
  CHECK(message == json{{"type", "call"}, {"id", 42}, {"path", "git.hub \"x\""}, {"input", {{"a", {1, {{"b", "é"}}}}}}});
  CHECK(json::parse(callLine(1, "t", ""))["input"] == json::object());
}

TEST_CASE("worker call lines: result lines read back to their payload's text", "[codemode]") {
  const json value = {{"text", "line\nwith \"quotes\" and }"}, {"n", 1.5}};
  const std::string line = resultLine(7, true, value);
  REQUIRE(line.back() == '\n');
  CHECK(json::parse(line) == json{{"type", "result"}, {"id", 7}, {"ok", true}, {"value", value}});
  const auto read = readResultLine(std::string_view(line).substr(0, line.size() - 1));
  REQUIRE(read);
  CHECK(read->id == 7);
  CHECK(read->ok);
  CHECK(json::parse(read->payload) == value);

  const json error = {{"kind", "ToolFailure"}, {"message", "no"}};
  const std::string failed = resultLine(18446744073709551615ull, false, error);
  const auto readFailed = readResultLine(std::string_view(failed).substr(0, failed.size() - 1));
  REQUIRE(readFailed);
  CHECK(readFailed->id == 18446744073709551615ull);
  CHECK_FALSE(readFailed->ok);
  CHECK(json::parse(readFailed->payload) == error);

  CHECK(readResultLine(R"({"type":"result","id":1,"ok":true,"value":null})")->payload == "null");
}

TEST_CASE("worker call lines: a text answer's line is the line its JSON string value makes", "[codemode]") {
  const std::string text = "1: line \"one\"\n2: \xC3\xA9t\xC3\xA9\n3: \x01\xFF";
  const std::string written = textResultLine(7, text);
  CHECK(written == resultLine(7, true, json(text)));
  const auto read = readResultLine(std::string_view(written).substr(0, written.size() - 1));
  REQUIRE(read);
  CHECK(read->id == 7);
  CHECK(read->ok);
  CHECK(textResultLine(8, "") == resultLine(8, true, json("")));
}

TEST_CASE("worker call lines: other lines are not taken for results", "[codemode]") {
  for (const char* line : {R"({"type":"run","code":"x"})", R"({"type":"result","id":"1","ok":true,"value":1})",
                           R"({"type":"result","id":1,"ok":true,"value":})", R"({"type":"result","id":,"ok":true,"value":1})",
                           R"({"type":"result","id":1,"ok":maybe,"value":1})", R"({"type":"result","id":1,"ok":true,"value":1)",
                           R"({"ok":true,"type":"result","id":1,"value":1})", ""})
    CHECK_FALSE(readResultLine(line));
}

TEST_CASE("call lines: a lone surrogate escape is found, a pair or an escaped backslash is not", "[codemode]") {
  CHECK_FALSE(hasLoneSurrogate(R"({"s":"plain","e":"😀","n":1})"));
  CHECK_FALSE(hasLoneSurrogate(R"({"s":"\ud83d\ude00"})"));         // a pair, escaped
  CHECK_FALSE(hasLoneSurrogate(R"({"s":"\\ud800"})"));              // a backslash, then text
  CHECK_FALSE(hasLoneSurrogate(R"({"s":"\u0001\n\"\\"})"));
  CHECK(hasLoneSurrogate(R"({"s":"a\ud800b"})"));                   // a high half alone
  CHECK(hasLoneSurrogate(R"({"s":"a\udc00"})"));                    // a low half alone
  CHECK(hasLoneSurrogate(R"({"s":"\ud800\u0041"})"));               // a high half before no low half
  CHECK(hasLoneSurrogate(R"({"s":"\\\ud800"})"));                   // an escaped backslash, then the escape
  CHECK(hasLoneSurrogate(R"(["\uD800"])"));                         // upper-case hex
  CHECK(hasLoneSurrogate(R"({"\udbff":1})"));                       // in a key
}

TEST_CASE("worker call lines: a raw text answer is its line, then the text as it is", "[codemode]") {
  const std::string text = "1: line \"one\"\n2: \xC3\xA9t\xC3\xA9\n\n3: {\"type\":\"run\"}\n";
  const std::string written = rawTextResult(7, text);
  const std::size_t newline = written.find('\n');
  REQUIRE(newline != std::string::npos);
  const std::string_view line = std::string_view(written).substr(0, newline);
  CHECK(json::parse(line) == json{{"type", "text"}, {"id", 7}, {"bytes", text.size()}});
  CHECK(written.substr(newline + 1) == text);
  const auto header = readTextHeader(line);
  REQUIRE(header);
  CHECK(header->id == 7);
  CHECK(header->bytes == text.size());
  CHECK_FALSE(readResultLine(line));
  const std::string empty = rawTextResult(18446744073709551615ull, "");
  CHECK(empty == R"({"type":"text","id":18446744073709551615,"bytes":0})" "\n");
  CHECK(readTextHeader(std::string_view(empty).substr(0, empty.size() - 1))->bytes == 0);
}

TEST_CASE("worker call lines: other lines are not taken for raw text answers", "[codemode]") {
  for (const char* line : {R"({"type":"result","id":1,"ok":true,"value":1})", R"({"type":"text","id":1,"bytes":})",
                           R"({"type":"text","id":1,"bytes":-1})", R"({"type":"text","id":1,"bytes":2x})",
                           R"({"type":"text","id":"1","bytes":2})", R"({"type":"text","bytes":2,"id":1})",
                           R"({"type":"text","id":1,"bytes":2)", ""})
    CHECK_FALSE(readTextHeader(line));
}
