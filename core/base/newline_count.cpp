#include "core/base/newline_count.h"

#include <algorithm>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace toold::core {

#if defined(__SSE2__)

namespace {

// Each compare gives 0xFF (-1) per newline byte; subtracting the compares from a zero vector
// counts per byte lane, and one sum of absolute differences folds the lanes into two 64-bit sums.
// A lane holds at most 255, hence the bound on the blocks summed before each fold.
std::uint64_t foldLanes(__m128i lanes) {
  const __m128i sums = _mm_sad_epu8(lanes, _mm_setzero_si128());
  return static_cast<std::uint64_t>(_mm_cvtsi128_si32(sums)) +
         static_cast<std::uint64_t>(_mm_cvtsi128_si32(_mm_unpackhi_epi64(sums, sums)));
}

__m128i newlinesIn16(const char* at, __m128i newline) {
  return _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(at)), newline);
}

} // namespace

std::size_t countNewlines64(const char* block) {
  const __m128i newline = _mm_set1_epi8('\n');
  __m128i lanes = _mm_setzero_si128();
  lanes = _mm_sub_epi8(lanes, newlinesIn16(block, newline));
  lanes = _mm_sub_epi8(lanes, newlinesIn16(block + 16, newline));
  lanes = _mm_sub_epi8(lanes, newlinesIn16(block + 32, newline));
  lanes = _mm_sub_epi8(lanes, newlinesIn16(block + 48, newline));
  return static_cast<std::size_t>(foldLanes(lanes));
}

std::uint64_t countNewlines(const char* data, std::size_t size) {
  const __m128i newline = _mm_set1_epi8('\n');
  std::uint64_t count = 0;
  std::size_t at = 0;
  constexpr std::size_t kBlocksPerFold = 255;
  while (size - at >= 16) {
    const std::size_t blocks = std::min((size - at) / 16, kBlocksPerFold);
    __m128i lanes = _mm_setzero_si128();
    for (std::size_t i = 0; i < blocks; ++i, at += 16) lanes = _mm_sub_epi8(lanes, newlinesIn16(data + at, newline));
    count += foldLanes(lanes);
  }
  return count + static_cast<std::uint64_t>(std::count(data + at, data + size, '\n'));
}

#else

std::size_t countNewlines64(const char* block) { return static_cast<std::size_t>(std::count(block, block + 64, '\n')); }

std::uint64_t countNewlines(const char* data, std::size_t size) {
  return static_cast<std::uint64_t>(std::count(data, data + size, '\n'));
}

#endif

const char* skipNewlines(const char* from, const char* end, std::uint64_t& remaining) {
  if (remaining == 0) return from;
  while (end - from >= 64) {
    const std::size_t count = countNewlines64(from);
    if (count >= remaining) break; // the last one to pass is in this block
    remaining -= count;
    from += 64;
  }
  for (; from < end; ++from) {
    if (*from == '\n' && --remaining == 0) return from + 1;
  }
  return end;
}

} // namespace toold::core
