// The text of one `read` page of a file, and how much of the budget its lines may take. The page
// is opencode's layout — `<path>`, `<type>`, `<content>`, the numbered lines, a footer that says
// how to continue — and, when toold ended the page before the lines ran out, a first line that
// says the same, so that a host keeping only the head of the answer still shows where to go on.
// The whole text, wrapper, numbers, footer and first line included, fits the budget.
#pragma once

#include "core/output/output_bounding.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace toold::builtins {

/// What the lines of one page may take, within the call's budget.
struct PageRoom {
  std::uint64_t lines = 0;      ///< file lines the page may show: the caller's limit, or fewer
  std::size_t bytes = 0;        ///< their text, joined by "\n", with lineOverhead bytes each
  std::size_t lineOverhead = 0; ///< what each line costs beyond its text: its "N: "
};

/// The room a page of the file `path` starting at line `offset`, of at most `limit` lines, has
/// within `budget`, once the rest of the page is counted at its widest: every number in it as wide
/// as `largestNumber` (a bound of the line count, such as the file's size plus one). At least one
/// line and one byte: a budget too small for the page's frame still shows a line, over it.
PageRoom pageRoom(const core::BoundingLimits& budget, std::string_view path, std::uint64_t offset,
                  std::uint64_t limit, std::uint64_t largestNumber);

/// Where a page ended.
struct PageEnd {
  std::uint64_t firstLine = 1;  ///< the offset
  std::uint64_t shown = 0;      ///< lines shown
  std::uint64_t totalLines = 0; ///< of the file
  bool cutByBytes = false;      ///< the byte room ended it
  /// toold ended it (its room, or its default limit) while lines remain: the page starts with a
  /// line saying how to continue. Not when the caller's own limit did.
  bool cutByToold = false;
  std::size_t budgetBytes = 0;  ///< the budget the footer names when cutByBytes
};

/// "<path>P</path>\n<type>file</type>\n<content>\n".
std::string pageHeader(std::string_view path);
/// "(Showing lines A-B of N. Continue with offset=B+1.)" when cutByToold, else empty.
std::string pageFirstLine(const PageEnd& end);
/// opencode's footer: "(Output capped at 50 KB. Showing lines A-B. Use offset=B+1 to continue.)",
/// "(Showing lines A-B of N. Use offset=B+1 to continue.)" or "(End of file - total N lines)".
std::string pageFooter(const PageEnd& end);
/// What follows the footer.
inline constexpr std::string_view kPageClose = "\n</content>";

} // namespace toold::builtins
