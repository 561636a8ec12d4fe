// The edit script of a line diff: which lines of one text are removed and which of the other are
// added, as runs. unified_diff lays it out as hunks. Up to 1,000 differing lines it replays
// jsdiff's own search, so the hunks are byte-for-byte what opencode shows; up to 2,000 it is a
// minimal script found by Myers' linear-space search (equally small, but lines that repeat may be
// paired differently); beyond that, a patience diff: the lines found once on each side are paired
// in order and the stretches between them diffed as above. Myers' searches of one diff share a
// budget of a few million steps; a stretch past it is shown as removed and added. A cheap lower
// bound on the edit count (the lines one side has more of) skips the searches that cannot
// succeed, so a file rewritten whole costs about as much as reading it.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace toold::builtins {

/// The lines of `text`, each with its '\n' (the last one without, when the text does not end in one).
std::vector<std::string_view> splitLines(std::string_view text);

enum class LineRunKind { Equal, Removed, Added };

/// A run of lines, like one of jsdiff's change objects; `start` is in the old lines for Equal and
/// Removed, in the new lines for Added.
struct LineRun {
  LineRunKind kind;
  std::size_t start;
  std::size_t count;
};

/// The script turning `oldLines` into `newLines` (lines as splitLines gives them), with the
/// removals of each change before its additions (jsdiff's order).
std::vector<LineRun> lineScript(const std::vector<std::string_view>& oldLines, const std::vector<std::string_view>& newLines);

} // namespace toold::builtins
