// Brace expansion as bash does it before any other expansion: `cat /etc/{passwd,hostname}` runs
// `cat /etc/passwd /etc/hostname`, and `{rm,-rf,/}` runs `rm -rf /`. The permission scan must
// see those words, not the one written, so the scanner expands braces it can read statically.
// Only braces written unquoted and unescaped take part (the lexer marks them): `'{a,b}'` and
// `\{a,b}` stay one word. A group needs a comma at its own level (`{a,b}`, `x{,.bak}`) or is a
// sequence (`{1..5}`, `{08..10}`, `{a..e..2}`); anything else (`{}`, `{a}`, an unclosed `{`) is
// literal, as in bash.
//
// The work is bounded whatever the input: at most kMaxBraceWords words and kMaxBraceBytes bytes
// per scanned line (a budget shared by every word), braces nested at most kMaxBraceNesting deep.
// Beyond that the expansion reports a problem and the scanner fails closed.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace toold::builtins::shell_detail {

inline constexpr std::size_t kMaxBraceWords = 1024;
inline constexpr std::size_t kMaxBraceBytes = std::size_t{1} << 20;
inline constexpr std::size_t kMaxBraceNesting = 64;

/// What a whole line's expansions have produced so far.
struct BraceBudget {
  std::size_t words = 0;
  std::size_t bytes = 0;
};

struct BraceExpansion {
  bool expanded = false;          ///< some group expanded; `words` holds the result
  std::vector<std::string> words; ///< in bash's order
  std::string problem;            ///< non-empty: a limit was reached (nothing else is set)
};

/// Expands the unquoted brace groups of `text`, where `marks` are the offsets in `text` of the
/// `{`, `,` and `}` characters written unquoted (ascending). Words produced are counted in
/// `budget`. Not expanded (no group, only literal braces): `expanded` is false.
BraceExpansion expandBraces(std::string_view text, const std::vector<std::size_t>& marks, BraceBudget& budget);

} // namespace toold::builtins::shell_detail
