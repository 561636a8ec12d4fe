#include "protocol/json_string_scan.h"

#if defined(__x86_64__)
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace toold::protocol {
namespace {

const unsigned char* runEndBytes(const unsigned char* at, const unsigned char* end) {
  while (at < end && *at >= 0x20 && *at < 0x80 && *at != '"' && *at != '\\') ++at;
  return at;
}

#if defined(__SSE2__)
const unsigned char* runEndSse2(const unsigned char* at, const unsigned char* end) {
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
  return runEndBytes(at, end);
}
#endif

#if defined(__x86_64__)
// Thirty-two bytes a step. Runs are short — a file's line, between two escaped newlines, is a few
// dozen bytes — so a step fewer per run is most of what there is to gain.
__attribute__((target("avx2"))) const unsigned char* runEndAvx2(const unsigned char* at, const unsigned char* end) {
  const __m256i quote = _mm256_set1_epi8('"');
  const __m256i backslash = _mm256_set1_epi8('\\');
  const __m256i space = _mm256_set1_epi8(0x20);
  while (end - at >= 32) {
    const __m256i bytes = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(at));
    const __m256i special =
        _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(bytes, quote), _mm256_cmpeq_epi8(bytes, backslash)),
                        _mm256_cmpgt_epi8(space, bytes));
    const auto mask = static_cast<unsigned>(_mm256_movemask_epi8(special));
    if (mask != 0) return at + __builtin_ctz(mask);
    at += 32;
  }
  return runEndSse2(at, end);
}

#endif

} // namespace

#if defined(__x86_64__)
using RunEnd = const unsigned char* (*)(const unsigned char*, const unsigned char*);

// Chosen once, when the loader relocates toold (an ifunc): no test and no indirect call per run.
// The loader runs it before the sanitizers' runtimes start (their shadow memory is not there yet),
// so it is left uninstrumented. Not static: clang looks an ifunc's resolver up by its symbol.
extern "C" {
__attribute__((no_sanitize("address", "undefined", "thread"), visibility("hidden"))) RunEnd
toold_resolve_plain_string_run_end() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") ? runEndAvx2 : runEndSse2;
}
}

const unsigned char* plainStringRunEnd(const unsigned char* at, const unsigned char* end)
    __attribute__((ifunc("toold_resolve_plain_string_run_end")));
#elif defined(__SSE2__)
const unsigned char* plainStringRunEnd(const unsigned char* at, const unsigned char* end) { return runEndSse2(at, end); }
#else
const unsigned char* plainStringRunEnd(const unsigned char* at, const unsigned char* end) { return runEndBytes(at, end); }
#endif

} // namespace toold::protocol
