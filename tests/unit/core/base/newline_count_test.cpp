#include "core/base/newline_count.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

using toold::core::countNewlines;
using toold::core::countNewlines64;

TEST_CASE("countNewlines agrees with a byte-by-byte count at every length and alignment", "[text]") {
  std::string text;
  std::uint32_t seed = 7;
  for (int i = 0; i < 70'000; ++i) {
    seed = seed * 1664525u + 1013904223u;
    // Mostly newlines in places, so that a lane would overflow past 255 without the folds.
    text += (seed >> 24) % 3 == 0 ? 'x' : '\n';
  }
  for (std::size_t start = 0; start < 17; ++start) {
    for (std::size_t length : {0ul, 1ul, 15ul, 16ul, 17ul, 63ul, 64ul, 65ul, 4079ul, 4080ul, 4096ul, 4097ul, 65'000ul}) {
      INFO("start " << start << " length " << length);
      const char* data = text.data() + start;
      CHECK(countNewlines(data, length) == static_cast<std::uint64_t>(std::count(data, data + length, '\n')));
    }
  }
  const std::string all(100'000, '\n');
  CHECK(countNewlines(all.data(), all.size()) == 100'000);
}

TEST_CASE("countNewlines64 counts one block", "[text]") {
  std::string block(64, 'a');
  CHECK(countNewlines64(block.data()) == 0);
  block[0] = block[15] = block[16] = block[63] = '\n';
  CHECK(countNewlines64(block.data()) == 4);
  CHECK(countNewlines64(std::string(64, '\n').data()) == 64);
  block.assign(64, static_cast<char>(0x8A)); // '\n' with the high bit set is not a newline
  CHECK(countNewlines64(block.data()) == 0);
}

TEST_CASE("skipNewlines stops just past the newline that ends the count", "[text]") {
  std::string text;
  for (int i = 0; i < 500; ++i) text += std::string(static_cast<std::size_t>(i % 70), 'x') + "\n";
  const char* begin = text.data();
  const char* end = begin + text.size();
  for (std::uint64_t wanted : {0ull, 1ull, 2ull, 63ull, 64ull, 65ull, 250ull, 499ull, 500ull}) {
    std::uint64_t remaining = wanted;
    const char* at = toold::core::skipNewlines(begin, end, remaining);
    INFO("wanted " << wanted);
    CHECK(remaining == 0);
    CHECK(static_cast<std::uint64_t>(std::count(begin, at, '\n')) == wanted);
    CHECK((at == begin || at[-1] == '\n'));
  }
  std::uint64_t tooMany = 510;
  CHECK(toold::core::skipNewlines(begin, end, tooMany) == end);
  CHECK(tooMany == 10);
}
