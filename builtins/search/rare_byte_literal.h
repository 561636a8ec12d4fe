// Finding a literal, or an alternation of literals, by its rarest bytes: the searcher's fast path
// for case-sensitive plain text, where PCRE2's JIT would stop at every place of the first byte.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace toold::builtins {

/// A case-sensitive literal is found through its rarest byte: memchr skips to each place that
/// byte occurs, where the whole literal is compared. PCRE2's JIT skips to the literal's first
/// byte instead, which for "alpha beta" is among the most common there are.
/// The same for an alternation of such literals (`mutex|semaphore`): each is found by its
/// rarest byte and the earliest wins, where PCRE2 would try every position against all three.
struct RareByteLiteral {
  std::string text;
  char rare = 0;
  std::size_t offset = 0;
  /// A second rare byte, checked together with the first 16 positions at a time, so that most
  /// places the first occurs are passed over without stopping (ripgrep's "packed pair").
  char rare2 = 0;
  std::size_t offset2 = 0;
};

/// The literal with its two rarest bytes chosen (by how common a byte is in source and prose).
RareByteLiteral rareByteLiteral(std::string_view text);

/// The parts of a pattern that is only literals joined by '|' at the top level (each at least two
/// bytes, none with other syntax), or none.
std::vector<RareByteLiteral> literalAlternatives(std::string_view pattern);

/// Where `literal` first occurs in subject[start, size), or npos.
std::size_t findLiteral(const RareByteLiteral& literal, const char* subject, std::size_t size, std::size_t start);

} // namespace toold::builtins
