// The unified diff every mutating file tool puts in its metadata (and shows a person asked to
// approve the change): jsdiff's `createTwoFilesPatch` layout, which opencode's UIs render.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace toold::builtins {

struct UnifiedDiff {
  /// "Index: <path>\n" + 67 '=' + "\n--- <path>\n+++ <path>\n" then hunks "@@ -a,b +c,d @@" with
  /// `context` lines around changes, " ", "-", "+" body lines, and "\\ No newline at end of file"
  /// after a last line without one. Empty `before` and `after` equal → only the four header lines.
  std::string text;
  int additions = 0; ///< lines only in `after`
  int deletions = 0; ///< lines only in `before`
};

/// A line diff of `before` → `after` (both LF text; a "\r" before "\n" is part of the line, and a
/// last line without "\n" differs from the same text with one), its script as line_script.h finds it.
UnifiedDiff unifiedDiff(std::string_view path, std::string_view before, std::string_view after, int context = 3);

/// opencode's `trimDiff`: strips the indentation (spaces and tabs, counted as characters) common
/// to every non-blank body line, after the marker character; blank lines lose at most that much.
/// Body lines are the ' ', '-', '+' lines inside a hunk, found by its "@@" header's counts, so file
/// headers never count and a removed "-- x" line ("--- x") does. Cosmetic, for display only.
std::string trimDiffIndentation(std::string_view diff);

/// `diff` cut at a line boundary to at most `maxBytes`, with a note of what was left out, so a
/// large change does not push the whole metadata object over the pipeline's limit.
std::string boundedDiff(std::string_view diff, std::size_t maxBytes = 8 * 1024);

/// What a single file's change shows of its diff, and its counts.
struct ShownDiff {
  std::string text; ///< boundedDiff(trimDiffIndentation(unifiedDiff(path, before, after).text), maxBytes)
  int additions = 0;
  int deletions = 0;
};

/// The same text as that chain, written straight to its bounded size: the whole diff of a file
/// rewritten whole is twice the file, and was built, then trimmed into a copy, then cut to 8 KiB.
ShownDiff shownDiff(std::string_view path, std::string_view before, std::string_view after,
                    std::size_t maxBytes = 8 * 1024);

} // namespace toold::builtins
