#include "protocol/json_string_scan.h"

#include <catch2/catch.hpp>

#include <string>

using toold::protocol::plainStringRunEnd;

namespace {

std::size_t runEnd(const std::string& text) {
  const auto* begin = reinterpret_cast<const unsigned char*>(text.data());
  return static_cast<std::size_t>(plainStringRunEnd(begin, begin + text.size()) - begin);
}

} // namespace

// Every length and position around the steps (16 and 32 bytes) and their tails, so that each
// path the CPU may be given — AVX2, SSE2, byte by byte — meets a byte it must stop at in each lane.
TEST_CASE("plain string runs end at the first byte JSON cannot carry as it is", "[json-writer]") {
  const unsigned char stops[] = {'"', '\\', '\n', 0x00, 0x1F, 0x7F + 1, 0xC3, 0xFF};
  for (std::size_t length = 0; length <= 100; ++length) {
    const std::string plain(length, 'a');
    INFO("length " << length);
    CHECK(runEnd(plain) == length);
    for (std::size_t at = 0; at < length; ++at) {
      for (const unsigned char stop : stops) {
        std::string text = plain;
        text[at] = static_cast<char>(stop);
        // A second stop later must not be the one found.
        if (at + 1 < length) text[length - 1] = '"';
        INFO("stop " << int(stop) << " at " << at);
        REQUIRE(runEnd(text) == at);
      }
    }
  }
  // The bytes just inside: space, '~' and DEL (0x7F) are carried as they are.
  CHECK(runEnd(std::string(70, ' ') + "~\x7F" + std::string(40, 'z')) == 112);
}
