#include "builtins/text/ascii_run.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace toold::builtins {

std::size_t plainAsciiRunEnd(const char* data, std::size_t from, std::size_t limit) {
  std::size_t at = from;
#if defined(__SSE2__)
  const __m128i carriageReturn = _mm_set1_epi8('\r');
  for (; at + 16 <= limit; at += 16) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + at));
    // A byte of 0x80 and up has its top bit set already; a '\r' compares to 0xFF.
    const int stops = _mm_movemask_epi8(_mm_or_si128(bytes, _mm_cmpeq_epi8(bytes, carriageReturn)));
    if (stops != 0) return at + static_cast<std::size_t>(__builtin_ctz(static_cast<unsigned>(stops)));
  }
  // The last few bytes of a run of 16 or more: the sixteen that end at `limit`, those already
  // seen masked off, rather than a byte at a time (a line's tail, every line).
  if (at < limit && limit - from >= 16) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + limit - 16));
    const auto seen = 16 - (limit - at);
    const unsigned stops =
        static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(bytes, _mm_cmpeq_epi8(bytes, carriageReturn)))) >> seen;
    return stops != 0 ? at + static_cast<std::size_t>(__builtin_ctz(stops)) : limit;
  }
#endif
  while (at < limit && static_cast<unsigned char>(data[at]) < 0x80 && data[at] != '\r') ++at;
  return at;
}

std::size_t silentControlRunEnd(const char* data, std::size_t from, std::size_t limit) {
  std::size_t at = from;
#if defined(__SSE2__)
  const __m128i below = _mm_set1_epi8(0x1F);
  const __m128i del = _mm_set1_epi8(0x7F);
  const __m128i shown[] = {_mm_set1_epi8('\t'), _mm_set1_epi8('\n'), _mm_set1_epi8('\r'), _mm_set1_epi8('\b'),
                           _mm_set1_epi8(0x1B)};
  for (; at + 16 <= limit; at += 16) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + at));
    // Below 0x20 (unsigned): the byte is its own minimum with 0x1F.
    __m128i silent = _mm_cmpeq_epi8(_mm_min_epu8(bytes, below), bytes);
    for (const __m128i& keep : shown) silent = _mm_andnot_si128(_mm_cmpeq_epi8(bytes, keep), silent);
    silent = _mm_or_si128(silent, _mm_cmpeq_epi8(bytes, del));
    const unsigned stops = ~static_cast<unsigned>(_mm_movemask_epi8(silent)) & 0xFFFFu;
    if (stops != 0) return at + static_cast<std::size_t>(__builtin_ctz(stops));
  }
#endif
  while (at < limit && isSilentControl(static_cast<unsigned char>(data[at]))) ++at;
  return at;
}

} // namespace toold::builtins
