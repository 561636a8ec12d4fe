#include "builtins/search/rare_byte_literal.h"

#include <cstring>

namespace toold::builtins {

// How common a byte is in source code and prose, roughly: 0 rare, 100 the space.
static int byteFrequency(unsigned char byte) {
  static constexpr std::string_view kByFrequency = " etaoinsrhldcumfpgwybvkxjqz";
  if (const auto at = kByFrequency.find(static_cast<char>(byte)); at != std::string_view::npos)
    return 100 - static_cast<int>(at) * 3;
  switch (byte) {
  case '_': case '.': case '(': case ')': case ',': case '\t': return 55;
  case ';': case '=': case '/': case '"': case '-': case ':': case '*': case '<': case '>': case '{': case '}': return 35;
  default: return byte >= '0' && byte <= '9' ? 30 : (byte >= 'A' && byte <= 'Z' ? 25 : 5);
  }
}

// GCC builds an AVX2 version and a baseline one, and an ifunc picks one at load time. Not under
// ThreadSanitizer: its runtime is not set up yet when ifunc resolvers run, and toold would crash
// before main.
#if defined(__SANITIZE_THREAD__)
#define TOOLD_AVX2_CLONES
#else
#define TOOLD_AVX2_CLONES __attribute__((target_clones("avx2", "default")))
#endif

// Where `literal` first occurs in subject[start, size), or npos. Its two rare bytes are tested
// at 32 candidate positions per step (the baseline version does that in two 16-byte halves).
TOOLD_AVX2_CLONES std::size_t
findLiteral(const RareByteLiteral& literal, const char* subject, std::size_t size,
            std::size_t start) {
  constexpr std::size_t kLanes = 32;
  const std::size_t length = literal.text.size();
  if (size < start || size - start < length) return std::string_view::npos;
  using Bytes = char __attribute__((vector_size(kLanes)));
  Bytes first, second;
  for (std::size_t lane = 0; lane < kLanes; ++lane) {
    first[lane] = literal.rare;
    second[lane] = literal.rare2;
  }
  // Candidates start at `at`; the two rare bytes sit at at+offset and at+offset2.
  std::size_t at = start;
  const std::size_t lastStart = size - length;
  while (at + kLanes <= lastStart + 1) {
    Bytes a, b;
    std::memcpy(&a, subject + at + literal.offset, kLanes);
    std::memcpy(&b, subject + at + literal.offset2, kLanes);
    const Bytes both = (a == first) & (b == second);
    std::uint64_t words[kLanes / 8];
    std::memcpy(words, &both, kLanes);
    if ((words[0] | words[1] | words[2] | words[3]) != 0) {
      for (std::size_t lane = 0; lane < kLanes; ++lane)
        if (both[lane] != 0 && std::memcmp(subject + at + lane, literal.text.data(), length) == 0) return at + lane;
    }
    at += kLanes;
  }
  for (; at <= lastStart; ++at)
    if (subject[at + literal.offset] == literal.rare && std::memcmp(subject + at, literal.text.data(), length) == 0)
      return at;
  return std::string_view::npos;
}

RareByteLiteral rareByteLiteral(std::string_view text) {
  RareByteLiteral literal{std::string(text), text.front(), 0};
  for (std::size_t i = 0; i < text.size(); ++i)
    if (byteFrequency(static_cast<unsigned char>(text[i])) < byteFrequency(static_cast<unsigned char>(text[literal.offset])))
      literal.offset = i;
  literal.rare = text[literal.offset];
  literal.offset2 = literal.offset == 0 ? 1 : 0;
  for (std::size_t i = 0; i < text.size(); ++i)
    if (i != literal.offset && byteFrequency(static_cast<unsigned char>(text[i])) <
                                   byteFrequency(static_cast<unsigned char>(text[literal.offset2])))
      literal.offset2 = i;
  literal.rare2 = text[literal.offset2];
  return literal;
}

// The parts of a pattern that is only literals joined by '|' at the top level (each at least two
// bytes, none with other syntax), or none.
std::vector<RareByteLiteral> literalAlternatives(std::string_view pattern) {
  std::vector<RareByteLiteral> parts;
  constexpr std::string_view kSyntaxButBar = "\\^$.?*+()[]{}";
  if (pattern.find('|') == std::string_view::npos || pattern.find_first_of(kSyntaxButBar) != std::string_view::npos)
    return parts;
  for (std::size_t start = 0;;) {
    const std::size_t bar = std::min(pattern.find('|', start), pattern.size());
    const std::string_view part = pattern.substr(start, bar - start);
    if (part.size() < 2) return {};
    parts.push_back(rareByteLiteral(part));
    if (bar == pattern.size()) break;
    start = bar + 1;
  }
  return parts;
}

} // namespace toold::builtins
