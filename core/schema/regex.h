// Regular expressions for JSON Schema's "pattern" and "patternProperties", run by PCRE2: compiled
// once, then searched from any number of threads, in bounded time and memory however long the
// string or however badly the pattern backtracks.
//
// JSON Schema specifies ECMA-262 regular expressions (2020-12 recommends its "u" flag). PCRE2 is
// made to follow ECMA-262 where an option allows it:
//   - UTF: a pattern and a string are sequences of code points, as with the "u" flag.
//   - Not UCP: \d, \w and \b stay ASCII, as ECMA-262 defines them (UCP would let \d match "١").
//     The cost: \s is ASCII whitespace only, where ECMA-262 also counts U+00A0, U+FEFF, U+2028,
//     U+2029 and the other space separators.
//   - ALT_BSUX and EXTRA_ALT_BSUX: \uXXXX, \u{X...} and \xXX as in ECMA-262 (PCRE2 would
//     refuse \u).
//   - DOLLAR_ENDONLY: "$" matches at the very end only, not also before a final newline.
//   - Newline ANY: "." matches no CR, LF, U+2028 or U+2029, as in ECMA-262, and no VT, FF or
//     U+0085 either (a stricter answer there rather than a looser one).
//   - ALLOW_EMPTY_CLASS: "[]" matches nothing and "[^]" any character.
//   - MATCH_UNSET_BACKREF: a back-reference to a group that did not take part matches the empty
//     string.
//   - NEVER_BACKSLASH_C: \C could match half a UTF-8 character.
// Still different: a lookbehind must have a fixed length, \uD83D\uDE00 (escaped surrogates) is
// refused (write \u{1F600}), and PCRE2's own syntax (possessive quantifiers, atomic groups,
// recursion into a group, \p{...} names, inline flags) is accepted. Whole-pattern recursion ((?R),
// (?0), \g<0>, \g'0') is refused; see below.
//
// Back-references are allowed: they can make a search exponential, but so can nested quantifiers
// without them, and the limits below stop both.
//
// A subject that is not UTF-8 is not searched (InvalidUtf8). PCRE2 could skip the bad bytes
// instead, but then a "must not contain" pattern such as ^(?!.*\.\.) would pass "\xff../etc".
//
// Limits, per search: kMatchLimit steps of the matcher in all, kHeapLimitKiB of heap for the
// interpreter's backtracking, and kJitStackMax of JIT stack per thread (past that, the search
// runs again on the interpreter). A search that reaches a limit answers TooCostly, never a guess.
// An unanchored pattern P is searched as one anchored match of (?s:.*?)(?:P): PCRE2 restarts its
// step count at every starting position of a plain search, so a pattern that backtracks badly
// could take kMatchLimit steps at each of a million positions; this way the limit covers the
// whole search. (That is also why (?R) is refused: it would recurse into the added prefix.) The
// price: each starting position costs a step or more, so an unanchored search is too costly past
// a few million characters (about ten million for a simple pattern); an anchored one ("^...") is
// searched once, from the start, and has no such bound.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

namespace toold::core {

/// A pattern PCRE2 refused, or a search that failed for a reason other than its limits; the
/// message says what is wrong and, for a pattern, at which offset.
struct RegexError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Immutable once built; copies share the compiled code. search() may run on many threads at once.
class Regex {
public:
  enum class Result {
    Match,
    NoMatch,
    TooCostly,    // a limit was reached before the search could tell
    InvalidUtf8,  // the subject is not UTF-8, so it is not a string of code points to search
  };

  static constexpr std::uint32_t kMatchLimit = 10'000'000;
  static constexpr std::uint32_t kHeapLimitKiB = 32 * 1024;
  static constexpr std::size_t kJitStackMax = 1024 * 1024;

  /// Compiles `pattern` (UTF-8, ECMA-262 syntax as above). Throws RegexError.
  explicit Regex(std::string_view pattern);

  /// Whether the pattern matches somewhere in `subject` (anchored only where the pattern anchors
  /// itself).
  Result search(std::string_view subject) const;

  /// The pattern as given.
  const std::string& pattern() const { return pattern_; }

private:
  struct Code;
  std::shared_ptr<const Code> code_;
  std::string pattern_;
};

}  // namespace toold::core
