#include "builtins/search/line_scan.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace toold::builtins::search {

namespace {

using Bytes16 = std::uint8_t __attribute__((vector_size(16)));

/// The sum of the 16 byte counters in `counts`.
std::size_t sumLanes(Bytes16 counts) {
  std::uint64_t halves[2];
  std::memcpy(halves, &counts, sizeof halves);
  std::size_t total = 0;
  for (std::uint64_t half : halves) {
    half = (half & 0x00ff00ff00ff00ffULL) + ((half >> 8) & 0x00ff00ff00ff00ffULL); // four 16-bit sums
    total += static_cast<std::size_t>((half * 0x0001000100010001ULL) >> 48);       // their sum
  }
  return total;
}

} // namespace

std::size_t countNewlines(const char* begin, const char* end) {
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(begin);
  std::size_t size = static_cast<std::size_t>(end - begin);
  std::size_t total = 0;
  Bytes16 newline;
  for (std::size_t lane = 0; lane < 16; ++lane) newline[lane] = '\n';
  while (size >= 16) {
    // Byte counters overflow after 255 steps: add them up at least that often.
    const std::size_t steps = std::min<std::size_t>(size / 16, 255);
    Bytes16 counts{};
    for (std::size_t step = 0; step < steps; ++step) {
      Bytes16 chunk;
      std::memcpy(&chunk, bytes, sizeof chunk);
      counts -= reinterpret_cast<Bytes16>(chunk == newline); // a lane that is equal is all ones: -1
      bytes += 16;
    }
    total += sumLanes(counts);
    size -= steps * 16;
  }
  for (std::size_t i = 0; i < size; ++i) total += bytes[i] == '\n' ? 1 : 0;
  return total;
}

std::string_view reportedLine(std::string_view line, std::size_t maxBytes) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.size() <= maxBytes) return line;
  std::size_t cut = maxBytes;
  // Back to the start of the sequence the cut would split; at most three steps, as a sequence is
  // at most four bytes long (and bytes that are not UTF-8 are cut anywhere).
  for (int step = 0; step < 3 && cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80; ++step) --cut;
  return line.substr(0, cut);
}

} // namespace toold::builtins::search
