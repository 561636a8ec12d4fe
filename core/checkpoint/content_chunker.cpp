#include "core/checkpoint/content_chunker.h"

#include <bit>
#include <xxhash.h>

namespace toold::core {

namespace {

// The gear table: 256 fixed pseudo-random words (splitmix64 from a fixed seed). Fixed for good:
// changing it would move every boundary and make new versions share nothing with stored ones.
constexpr std::array<std::uint64_t, 256> makeGear() {
  std::array<std::uint64_t, 256> table{};
  std::uint64_t state = 0x746f6f6c642d6364ULL; // "toold-cd"
  for (auto& word : table) {
    state += 0x9e3779b97f4a7c15ULL;
    std::uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    word = z ^ (z >> 31);
  }
  return table;
}
constexpr auto kGear = makeGear();

// The mask tests the hash's top bits: the gear shifts left, so the top bits mix the most bytes.
constexpr std::uint64_t topBits(int bits) { return bits <= 0 ? 0 : ~std::uint64_t{0} << (64 - bits); }

std::size_t cutPoint(const unsigned char* data, std::size_t size, const ChunkingLimits& limits,
                     std::uint64_t strictMask, std::uint64_t looseMask) {
  if (size <= limits.minimum) return size;
  const std::size_t end = size < limits.maximum ? size : limits.maximum;
  const std::size_t normal = end < limits.average ? end : limits.average;
  std::uint64_t hash = 0;
  std::size_t i = limits.minimum;
  // Unrolled: the loop's own count and compare were a third of each byte's instructions.
#pragma GCC unroll 8
  for (; i < normal; ++i) {
    hash = (hash << 1) + kGear[data[i]];
    if ((hash & strictMask) == 0) return i + 1;
  }
#pragma GCC unroll 8
  for (; i < end; ++i) {
    hash = (hash << 1) + kGear[data[i]];
    if ((hash & looseMask) == 0) return i + 1;
  }
  return end;
}

constexpr char kHex[] = "0123456789abcdef";

} // namespace

ChunkId ChunkId::of(std::string_view bytes) {
  const XXH128_hash_t hash = XXH3_128bits(bytes.data(), bytes.size());
  return ChunkId{hash.high64, hash.low64};
}

std::string ChunkId::hex() const {
  std::string text(32, '0');
  for (int i = 0; i < 16; ++i) {
    text[static_cast<std::size_t>(15 - i)] = kHex[(high >> (4 * i)) & 0xf];
    text[static_cast<std::size_t>(31 - i)] = kHex[(low >> (4 * i)) & 0xf];
  }
  return text;
}

bool ChunkId::fromHex(std::string_view text, ChunkId& id) {
  if (text.size() != 32) return false;
  std::uint64_t halves[2] = {0, 0};
  for (std::size_t i = 0; i < 32; ++i) {
    const char c = text[i];
    unsigned digit;
    if (c >= '0' && c <= '9') digit = static_cast<unsigned>(c - '0');
    else if (c >= 'a' && c <= 'f') digit = static_cast<unsigned>(c - 'a' + 10);
    else return false;
    halves[i / 16] = (halves[i / 16] << 4) | digit;
  }
  id = ChunkId{halves[0], halves[1]};
  return true;
}

std::vector<std::size_t> chunkBoundaries(std::string_view content, const ChunkingLimits& limits) {
  // Normalized chunking: two bits stricter than the average before it, two looser after, which
  // narrows the spread of chunk sizes around the average.
  const int bits = std::countr_zero(limits.average);
  const std::uint64_t strictMask = topBits(bits + 2), looseMask = topBits(bits - 2);
  std::vector<std::size_t> ends;
  ends.reserve(content.size() / limits.average + 1);
  const auto* data = reinterpret_cast<const unsigned char*>(content.data());
  std::size_t offset = 0;
  while (offset < content.size()) {
    offset += cutPoint(data + offset, content.size() - offset, limits, strictMask, looseMask);
    ends.push_back(offset);
  }
  return ends;
}

} // namespace toold::core
