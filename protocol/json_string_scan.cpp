#include "protocol/json_string_scan.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace toold::protocol {

const unsigned char* plainStringRunEnd(const unsigned char* at, const unsigned char* end) {
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i space = _mm_set1_epi8(0x20);
  while (end - at >= 16) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
    // A signed compare: bytes from 0x80 up are negative, so "below a space" also catches them.
    const __m128i special = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(bytes, quote), _mm_cmpeq_epi8(bytes, backslash)),
                                         _mm_cmplt_epi8(bytes, space));
    const int mask = _mm_movemask_epi8(special);
    if (mask != 0) return at + __builtin_ctz(static_cast<unsigned>(mask));
    at += 16;
  }
#endif
  while (at < end && *at >= 0x20 && *at < 0x80 && *at != '"' && *at != '\\') ++at;
  return at;
}

} // namespace toold::protocol
