// The unified diff every mutating file tool puts in its metadata (and shows a person asked to
// approve the change): jsdiff's `createTwoFilesPatch` layout, which opencode's UIs render.
#pragma once

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
/// last line without "\n" differs from the same text with one). Up to 1,000 differing lines it
/// replays jsdiff's own search, so the hunks are byte-for-byte what opencode shows; up to 2,000
/// it is a minimal diff found by Myers' linear-space search (equally small, but lines that repeat
/// may be paired differently); beyond that, a patience diff: the lines found once on each side
/// are paired in order and the stretches between them diffed as above. Myers' searches of one
/// diff share a budget of a few million steps; a stretch past it is shown as removed and added.
/// A cheap lower bound on the edit count (the lines one side has more of) skips the searches that
/// cannot succeed, so a file rewritten whole costs about as much as reading it.
UnifiedDiff unifiedDiff(std::string_view path, std::string_view before, std::string_view after, int context = 3);

/// opencode's `trimDiff`: strips the indentation (spaces and tabs, counted as characters) common
/// to every non-blank body line, after the marker character; blank lines lose at most that much.
/// Body lines are the ' ', '-', '+' lines inside a hunk, found by its "@@" header's counts, so file
/// headers never count and a removed "-- x" line ("--- x") does. Cosmetic, for display only.
std::string trimDiffIndentation(std::string_view diff);

} // namespace toold::builtins
