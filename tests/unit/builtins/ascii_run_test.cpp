// The SSE2 run scan against the byte-at-a-time definition: every start, every end, a stop byte
// at every position of three 16-byte steps, and each kind of stop.
#include "builtins/text/ascii_run.h"

#include <catch2/catch.hpp>

#include <string>

using toold::builtins::plainAsciiRunEnd;

namespace {

std::size_t byByte(const std::string& text, std::size_t from, std::size_t limit) {
  while (from < limit && static_cast<unsigned char>(text[from]) < 0x80 && text[from] != '\r') ++from;
  return from;
}

} // namespace

TEST_CASE("ascii run: ends at the first byte over 0x7F or a carriage return, else at the limit", "[ascii_run]") {
  const std::string plain(48, 'a');
  for (const char stop : {'\r', '\x80', '\xC3', '\xFF'}) {
    for (std::size_t at = 0; at < plain.size(); ++at) {
      std::string text = plain;
      text[at] = stop;
      for (std::size_t from = 0; from <= text.size(); ++from)
        for (std::size_t limit = from; limit <= text.size(); ++limit)
          REQUIRE(plainAsciiRunEnd(text.data(), from, limit) == byByte(text, from, limit));
    }
  }
  // '\n', tabs and NUL are plain ASCII: the line window splits lines itself.
  const std::string controls = std::string("a\n\tb\0c", 6) + std::string(20, 'x');
  CHECK(plainAsciiRunEnd(controls.data(), 0, controls.size()) == controls.size());
  CHECK(plainAsciiRunEnd("", 0, 0) == 0);
}
