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

TEST_CASE("silent control run: ends at the first byte a terminal would show or act on, at every position",
          "[ascii_run]") {
  using toold::builtins::isSilentControl;
  using toold::builtins::silentControlRunEnd;
  // The set itself: controls but tab, newline, carriage return, backspace and escape; and DEL.
  for (int byte = 0; byte < 256; ++byte) {
    const bool expected = (byte < 0x20 && byte != '\t' && byte != '\n' && byte != '\r' && byte != '\b' && byte != 0x1B) ||
                          byte == 0x7F;
    REQUIRE(isSilentControl(static_cast<unsigned char>(byte)) == expected);
  }
  const auto byByte = [&](const std::string& text, std::size_t from, std::size_t limit) {
    while (from < limit && isSilentControl(static_cast<unsigned char>(text[from]))) ++from;
    return from;
  };
  // A run of silent bytes (NULs and every other kind in turn) with each byte value as its stop.
  std::string silent;
  for (int byte = 0; byte < 48; ++byte) silent += static_cast<char>(byte % 2 == 0 ? 0 : (byte % 0x20 == 9 ? 0x7F : byte % 0x20));
  for (char& byte : silent)
    if (!isSilentControl(static_cast<unsigned char>(byte))) byte = '\0';
  for (int stop = 0; stop < 256; ++stop)
    for (std::size_t at = 0; at < silent.size(); at += 5) {
      std::string text = silent;
      text[at] = static_cast<char>(stop);
      for (std::size_t from = 0; from <= text.size(); from += 3)
        for (std::size_t limit = from; limit <= text.size(); ++limit)
          REQUIRE(silentControlRunEnd(text.data(), from, limit) == byByte(text, from, limit));
    }
}
