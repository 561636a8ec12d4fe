// The frame decoder fed the same input at every split point, plus header and size edge cases.
#include "protocol/framing.h"
#include "tests/support/feed_in_pieces.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using toold::protocol::DecodedFrame;
using toold::protocol::ErrorCode;
using toold::protocol::FrameDecoder;
using toold::protocol::Framing;

namespace {

// One decoded event, as a string that is easy to compare: "F:<body>" or "E<code>".
std::string describe(const DecodedFrame& frame) {
  if (frame.error) return "E" + std::to_string(static_cast<int>(frame.error->code));
  return "F:" + frame.body;
}

std::vector<std::string> decodeInPieces(std::string_view input, const std::vector<std::size_t>& cuts,
                                        Framing framing = Framing::Auto, std::size_t limit = 1 << 20) {
  FrameDecoder decoder(framing, limit);
  std::vector<std::string> events;
  toold::testing::feedInPieces(decoder, input, cuts,
                               [&](DecodedFrame&& frame) { events.push_back(describe(frame)); });
  return events;
}

std::vector<std::string> decodeWhole(std::string_view input, Framing framing = Framing::Auto,
                                     std::size_t limit = 1 << 20) {
  return decodeInPieces(input, {}, framing, limit);
}

// Feeds `input` split at every single point, and at every pair of points, and byte by byte;
// each must decode to the same events as the whole.
void checkEverySplit(std::string_view input, const std::vector<std::string>& expected, Framing framing = Framing::Auto,
                     std::size_t limit = 1 << 20) {
  REQUIRE(decodeWhole(input, framing, limit) == expected);
  for (std::size_t i = 0; i <= input.size(); ++i) {
    INFO("split at " << i);
    REQUIRE(decodeInPieces(input, {i}, framing, limit) == expected);
  }
  if (input.size() <= 200) {
    for (std::size_t i = 0; i <= input.size(); ++i)
      for (std::size_t j = i; j <= input.size(); ++j) {
        INFO("split at " << i << " and " << j);
        REQUIRE(decodeInPieces(input, {i, j}, framing, limit) == expected);
      }
  }
  std::vector<std::size_t> everyByte;
  for (std::size_t i = 1; i < input.size(); ++i) everyByte.push_back(i);
  REQUIRE(decodeInPieces(input, everyByte, framing, limit) == expected);
}

std::string lsp(std::string_view body) {
  return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + std::string(body);
}

} // namespace

TEST_CASE("ndjson frames survive every split point", "[framing]") {
  checkEverySplit("{\"a\":1}\n{\"b\":2}\r\n\n  \n[1,2]\n", {"F:{\"a\":1}", "F:{\"b\":2}", "F:[1,2]"});
}

TEST_CASE("a final ndjson line without a newline is a frame at end of input", "[framing]") {
  checkEverySplit("{\"a\":1}\n{\"b\":2}", {"F:{\"a\":1}", "F:{\"b\":2}"});
}

TEST_CASE("content-length frames survive every split point", "[framing]") {
  const std::string input = lsp("{\"a\":1}") + lsp("{\"b\":\"\\n\"}") + "\r\n" + lsp("[]");
  checkEverySplit(input, {"F:{\"a\":1}", "F:{\"b\":\"\\n\"}", "F:[]"});
}

TEST_CASE("auto framing is decided by the first non-whitespace byte", "[framing]") {
  FrameDecoder decoder(Framing::Auto, 1024);
  const FrameDecoder::Sink ignore = [](DecodedFrame&&) {};
  decoder.feed(" \r\n", ignore);
  CHECK(decoder.framing() == Framing::Auto);
  decoder.feed("Content-Length: 2\r\n\r\n{}", ignore);
  CHECK(decoder.framing() == Framing::ContentLength);

  FrameDecoder second(Framing::Auto, 1024);
  second.feed("\n[", ignore);
  CHECK(second.framing() == Framing::Ndjson);
}

TEST_CASE("header names are case-insensitive and other headers are ignored", "[framing]") {
  checkEverySplit("content-length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}",
                  {"F:{}"});
  // Bare \n line ends are accepted too.
  checkEverySplit("Content-Length: 2\n\n{}", {"F:{}"});
}

TEST_CASE("a repeated Content-Length with the same value is accepted", "[framing]") {
  checkEverySplit("Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}", {"F:{}"});
}

TEST_CASE("conflicting Content-Length headers are an error, then the stream recovers", "[framing]") {
  checkEverySplit("Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}" + lsp("[1]"), {"E-32700", "F:[1]"});
}

TEST_CASE("a missing Content-Length is an error, then the stream recovers", "[framing]") {
  checkEverySplit("Content-Type: x\r\n\r\n{\"a\":1}" + lsp("[2]"), {"E-32700", "F:[2]"});
}

TEST_CASE("an invalid Content-Length value is an error", "[framing]") {
  CHECK(decodeWhole("Content-Length: 12x\r\n\r\n{}" + lsp("[3]")) == std::vector<std::string>{"E-32700", "F:[3]"});
  CHECK(decodeWhole("Content-Length: \r\n\r\n{}" + lsp("[3]")) == std::vector<std::string>{"E-32700", "F:[3]"});
  CHECK(decodeWhole("Content-Length: -1\r\n\r\n{}" + lsp("[3]")) == std::vector<std::string>{"E-32700", "F:[3]"});
  CHECK(decodeWhole("Content-Length: 99999999999999999999999\r\n\r\n{}" + lsp("[3]")) ==
        std::vector<std::string>{"E-32700", "F:[3]"});
}

TEST_CASE("a too-small Content-Length yields a short body, then the stream recovers", "[framing]") {
  // The body "{\"a\"" is handed on (and fails to parse later); the rest is garbage before the next header.
  const auto events = decodeWhole("Content-Length: 4\r\n\r\n{\"a\":1}" + lsp("[4]"));
  REQUIRE(events.size() == 3);
  CHECK(events[0] == "F:{\"a\"");
  CHECK(events[1] == "E-32700");
  CHECK(events[2] == "F:[4]");
}

TEST_CASE("a JSON body sent without headers in LSP framing is an error at once", "[framing]") {
  CHECK(decodeWhole("{\"a\":1}" + lsp("[5]"), Framing::ContentLength) == std::vector<std::string>{"E-32700", "F:[5]"});
}

TEST_CASE("input ending inside a Content-Length frame is reported", "[framing]") {
  CHECK(decodeWhole("Content-Length: 10\r\n\r\n{}") == std::vector<std::string>{"E-32700"});
  CHECK(decodeWhole("Content-Length: 10\r\n") == std::vector<std::string>{"E-32700"});
}

TEST_CASE("an oversized ndjson frame is refused once and skipped without buffering it", "[framing]") {
  const std::string big = "{\"x\":\"" + std::string(300, 'a') + "\"}";
  checkEverySplit(big + "\n{\"ok\":1}\n", {"E-32600", "F:{\"ok\":1}"}, Framing::Auto, 100);
  // Exactly at the limit is fine; one byte over is not.
  const std::string exact(100, ' ');
  CHECK(decodeWhole("[" + std::string(98, ' ') + "]\n", Framing::Ndjson, 100) ==
        std::vector<std::string>{"F:[" + std::string(98, ' ') + "]"});
  CHECK(decodeWhole("[" + std::string(99, ' ') + "]\n", Framing::Ndjson, 100) == std::vector<std::string>{"E-32600"});
}

TEST_CASE("an oversized content-length frame is refused and its body skipped", "[framing]") {
  const std::string big = "[" + std::string(300, '1') + "]";
  checkEverySplit(lsp(big) + lsp("{}"), {"E-32600", "F:{}"}, Framing::Auto, 100);
}

TEST_CASE("the decoder's buffer stays bounded while an oversized frame streams in", "[framing]") {
  FrameDecoder decoder(Framing::Ndjson, 1000);
  int errors = 0;
  const FrameDecoder::Sink sink = [&](DecodedFrame&& frame) { errors += frame.error ? 1 : 0; };
  const std::string chunk(4096, 'x');
  for (int i = 0; i < 1000; ++i) decoder.feed(chunk, sink); // 4 MB of one line
  decoder.feed("\n{}\n", sink);
  CHECK(errors == 1);
}

TEST_CASE("invalid UTF-8 passes the decoder untouched, the encoder replaces it", "[framing]") {
  CHECK(decodeWhole("{\"a\":\"\xff\"}\n") == std::vector<std::string>{"F:{\"a\":\"\xff\"}"});
  const nlohmann::json bad = {{"text", std::string("ok \xff\xfe end")}};
  std::string encoded;
  REQUIRE_NOTHROW(encoded = toold::protocol::encodeFrame(bad, Framing::Ndjson));
  CHECK(encoded == "{\"text\":\"ok \xEF\xBF\xBD\xEF\xBF\xBD end\"}\n");
}

TEST_CASE("ndjson output never contains a raw newline inside a frame", "[framing]") {
  const nlohmann::json message = {{"text", "line one\nline two\r\n"}};
  const std::string encoded = toold::protocol::encodeFrame(message, Framing::Ndjson);
  CHECK(encoded.find('\n') == encoded.size() - 1);
}

TEST_CASE("content-length output announces the byte length", "[framing]") {
  const nlohmann::json message = {{"t", "\xc3\xa9"}};
  CHECK(toold::protocol::encodeFrame(message, Framing::ContentLength) ==
        "Content-Length: 10\r\n\r\n{\"t\":\"\xc3\xa9\"}");
}

TEST_CASE("framing names parse both ways", "[framing]") {
  for (auto framing : {Framing::Auto, Framing::Ndjson, Framing::ContentLength})
    CHECK(toold::protocol::parseFraming(toold::protocol::framingName(framing)) == framing);
  CHECK_FALSE(toold::protocol::parseFraming("json").has_value());
}

TEST_CASE("a large ndjson frame that fills the buffer is handed over whole, and the next ones still decode",
          "[framing]") {
  // Over 1 MiB: the frame takes the decoder's buffer rather than a copy of it.
  const std::string big = "{\"data\":\"" + std::string(1536 * 1024, 'x') + "\"}";
  FrameDecoder decoder(Framing::Ndjson, 4u << 20);
  std::vector<std::string> bodies;
  auto sink = [&](DecodedFrame&& frame) { bodies.push_back(frame.error ? "error" : frame.body); };
  for (std::size_t at = 0; at < big.size(); at += 65536) decoder.feed(std::string_view(big).substr(at, 65536), sink);
  decoder.feed("\r\n", sink);  // a CR before the newline is not part of the frame
  decoder.feed("{\"small\":1}\n{\"spl", sink);
  decoder.feed("it\":2}\n", sink);
  // Behind another frame in the same read, a large one is copied; what follows is unaffected.
  decoder.feed("{\"a\":0}\n" + big + "\n{\"b\":3}\n", sink);
  REQUIRE(bodies.size() == 6);
  CHECK(bodies[0] == big);
  CHECK(bodies[1] == "{\"small\":1}");
  CHECK(bodies[2] == "{\"split\":2}");
  CHECK(bodies[3] == "{\"a\":0}");
  CHECK(bodies[4] == big);
  CHECK(bodies[5] == "{\"b\":3}");
}
