// The searches of the edit matcher's steps: each returns every span of the file that matches the
// find its way (up to kMaxEditMatches + 1), and the matcher decides with the first step that
// found any. Private to builtins/edit.
#pragma once

#include "builtins/edit/file_index.h"

#include <string_view>
#include <vector>

namespace toold::builtins::edit {

/// Every occurrence of `find` in the file's text, overlapping ones included, except where a find
/// starting with a space or tab starts inside a line's indentation (after only spaces and tabs).
std::vector<Match> exactMatches(const FileIndex& file, std::string_view find);

/// Every window of the find's line count whose lines equal the find's at `level`, with relative
/// indentation kept (a uniform shift allowed, identical indentation for TrailingSpace). With
/// `nonOverlapping` (replaceAll), windows overlapping one already found are skipped.
std::vector<Match> lineMatches(FileIndex& file, const Find& find, LineLevel level, bool nonOverlapping, Budget& budget);

/// How the blank-tolerant steps compare indentation.
enum class IndentRule {
  Shift,        ///< a uniform shift (tabs for spaces included), as the strict line steps
  Scale,        ///< a consistent scaling of the levels (2-space levels for 4-space ones, …)
  ShiftOrScale, ///< either
  Ignore,       ///< none: the find's lines all have one indentation (it was lost), the file's any
};

/// Every run of the file's non-blank lines that equals the find's non-blank lines at `level`, in
/// order, whatever blank lines stand between them on either side, with indentation as `rule`
/// says. The span runs from the first to the last matched line.
std::vector<Match> blankTolerantMatches(FileIndex& file, const Find& find, LineLevel level, IndentRule rule,
                                        bool nonOverlapping, Budget& budget);

/// Windows of the find's line count whose first and last lines equal the find's (trimmed) and
/// whose middle lines are close enough; never with a trivial anchor line. `nearMisses` gets the
/// windows with the same anchors whose middle comes close without passing: next to one match,
/// they make it ambiguous.
std::vector<Match> anchorMatches(FileIndex& file, const Find& find, bool nonOverlapping, Budget& budget,
                                 std::vector<MatchedSpan>& nearMisses);

} // namespace toold::builtins::edit
