// Finding where an edit's `oldString` is in a file, tolerating what models get wrong without ever
// replacing a block the model did not mean.
//
// The matcher tries steps from strictest to loosest. At each step it counts every span of the
// file that matches the step's normalization of `oldString`; the first step with any span decides:
// one span applies, several is a refusal that names them (never a reason to try looser steps),
// because a looser step can only add spans, never disambiguate. Line-based steps match whole
// lines, keep the find's line count and its relative indentation, so an inner block never stands
// in for an outer one and a match never swallows far more text than the model sent.
//
// "Lines" are the text split on '\n'; a find ending in '\n' is matched as lines without its final
// empty element, and its spans then include the last line's '\n' (when the file has one there).
// Each line step also ignores what the stricter ones ignore. Degenerate input (thousands of
// overlapping windows of a huge find, long similar lines) is bounded by a work budget: a step
// that runs out with two spans found is Ambiguous (with the spans found so far), otherwise the
// plan is NotFound rather than a guess.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toold::builtins {

/// The steps, strictest first. Each is named in results and error messages.
enum class MatchStep {
  Exact,           ///< `oldString` occurs verbatim
  TrailingSpace,   ///< whole lines, equal once trailing whitespace is ignored
  Indentation,     ///< whole lines, equal once a uniform indentation shift (incl. tabs↔spaces) is undone
  InnerSpace,      ///< whole lines, equal once whitespace runs inside lines are collapsed (indentation as above)
  Escapes,         ///< `oldString` sent with literal escapes (`\n`, `\t`, `\"`, …): unescaped, then matched as above
  Punctuation,     ///< whole lines, equal once typographic quotes/dashes/arrows/spaces are folded to ASCII
                   ///< and zero-width characters dropped
  BlankLines,      ///< the non-blank lines in order, blank lines anywhere ignored (levels as above, first
                   ///< with a span deciding), indentation as above
  IndentScale,     ///< as BlankLines (punctuation folded), the nesting consistently scaled (2 for 4 spaces, …)
  LetterCase,      ///< as BlankLines (punctuation folded), ASCII letter case ignored, indentation shifted or scaled
  IndentLost,      ///< as BlankLines (punctuation folded), oldString's lines all at one indentation
                   ///< (its nesting lost), the file's indentation anything
  Fragment,        ///< any span (mid-line included) equal once whitespace is compared loosely:
                   ///< runs between word characters of any length, others optional
  Anchors,         ///< first and last lines equal (trimmed, not trivial like `}`), same line count,
                   ///< middle lines similar (average ≥ 0.65, each differing ≥ 0.5, ≤ 2 differ), and no
                   ///< other window with the same anchors nearly so (average ≥ 0.5)
};

std::string_view matchStepName(MatchStep step); ///< "exact", "trailing whitespace", …

/// A span of the decoded (LF) text that matched: [begin, end) in bytes, and its 1-based lines.
struct MatchedSpan {
  std::size_t begin = 0;
  std::size_t end = 0;
  int firstLine = 0;
  int lastLine = 0;
};

/// The most spans one edit may replace. Each found span costs bookkeeping (its position, its
/// replacement) whatever the result's size, so a replaceAll of a one-byte oldString over a 64 MiB
/// file would hold gigabytes before writing a byte; a step stops collecting past this many.
inline constexpr std::size_t kMaxEditMatches = 100'000;

struct EditRequest {
  std::string_view text;      ///< the file, decoded to LF
  std::string_view oldString; ///< LF; not empty
  std::string_view newString; ///< LF
  bool replaceAll = false;
  /// The largest text the edit may leave (LF bytes): a plan that would pass it is TooLarge,
  /// decided before its replacements add up to more than this, so that `replaceAll` cannot
  /// amplify a small input into gigabytes.
  std::size_t maxResultBytes = static_cast<std::size_t>(-1);
};

/// The closest block to a find that matched nowhere, for the error message.
struct ClosestBlock {
  int firstLine = 0;
  int lastLine = 0;
  std::string text; ///< the block's lines from the file, each prefixed "<n>: " like read's output
  int equalLines = 0; ///< how many of the find's lines equal (trimmed) the block's
};

struct EditPlan {
  enum class Outcome { Applied, NotFound, Ambiguous, TooLarge, TooMany } outcome = Outcome::NotFound;
  MatchStep step = MatchStep::Exact; ///< the deciding step (Applied or Ambiguous)
  /// Applied: the spans replaced (one, or every non-overlapping span with replaceAll).
  /// Ambiguous: every span the deciding step found (at most kMaxEditMatches + 1). TooLarge and
  /// TooMany (replaceAll found more than kMaxEditMatches spans): none.
  std::vector<MatchedSpan> spans;
  /// Applied: the replacement for each span, in order. Exact: `newString` verbatim (no `$&`, no
  /// unescaping). Line steps (all but Exact, Escapes and Fragment): the lines `newString` keeps
  /// from `oldString` (equal, in order) are written as the file has them, so that what the step
  /// tolerated (blank lines, indentation, punctuation, letter case, a different middle line) is
  /// left as it was; the file's blank lines between two kept lines stay where `newString` has only
  /// blank lines there too; the other lines of `newString` are indented the file's way (the shift
  /// or scaling the find needed; with its indentation lost, the indentation of the kept line before
  /// them, or after them at the start). Escapes: `newString` verbatim with the shift applied.
  /// Fragment: `newString` without the whitespace `oldString` had at its ends. Blank lines dropped
  /// from `oldString`'s ends are dropped from `newString`'s too (unless it is all blank lines).
  /// When `oldString` ends with '\n' but the matched last line is the file's last and has none,
  /// one final '\n' of the replacement is dropped.
  std::vector<std::string> replacements;
  /// Applied: a short human note of what was tolerated, empty for Exact, e.g.
  /// "indentation shifted from 4 spaces to 1 tab", "matched ignoring trailing whitespace".
  std::string note;
  /// NotFound: the most similar block (the find's line count, most non-blank lines equal once
  /// trimmed, first of equals), when at least one of the find's non-blank lines is equal there.
  std::optional<ClosestBlock> closest;
  /// TooLarge: how large the text would be at least (counted until it passed the limit), and the
  /// limit.
  std::size_t resultBytes = 0;
  std::size_t maxResultBytes = 0;
};

/// Plans the edit (see the file comment). Pure: no I/O. Never throws for any input.
EditPlan planEdit(const EditRequest& request);

/// The model-facing error for a NotFound, Ambiguous or TooLarge plan (for `path`), naming lines
/// and the closest block, or the limit; empty for Applied.
std::string describeFailure(const EditPlan& plan, std::string_view path);

/// The model-facing error for an edit whose result (`resultBytes`, at least) would pass
/// `maxResultBytes`.
std::string describeTooLarge(std::size_t resultBytes, std::size_t maxResultBytes, std::string_view path);

} // namespace toold::builtins
