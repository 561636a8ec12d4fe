#include "builtins/files/read_page.h"

#include "core/output/output_budget.h"

#include <algorithm>

namespace toold::builtins {

std::string pageHeader(std::string_view path) {
  std::string header = "<path>";
  header.append(path).append("</path>\n<type>file</type>\n<content>\n");
  return header;
}

std::string pageFirstLine(const PageEnd& end) {
  if (!end.cutByToold) return {};
  const std::uint64_t last = end.firstLine + end.shown - 1;
  return "(Showing lines " + std::to_string(end.firstLine) + "-" + std::to_string(last) + " of " +
         std::to_string(end.totalLines) + ". Continue with offset=" + std::to_string(last + 1) + ".)";
}

std::string pageFooter(const PageEnd& end) {
  const std::uint64_t last = end.firstLine + end.shown - 1;
  const std::string range = std::to_string(end.firstLine) + "-" + std::to_string(last);
  if (end.cutByBytes)
    return "(Output capped at " + core::budgetSize(end.budgetBytes) + ". Showing lines " + range +
           ". Use offset=" + std::to_string(last + 1) + " to continue.)";
  if (last < end.totalLines)
    return "(Showing lines " + range + " of " + std::to_string(end.totalLines) + ". Use offset=" +
           std::to_string(last + 1) + " to continue.)";
  return "(End of file - total " + std::to_string(end.totalLines) + " lines)";
}

PageRoom pageRoom(const core::BoundingLimits& budget, std::string_view path, std::uint64_t offset,
                  std::uint64_t limit, std::uint64_t largestNumber) {
  // Every number of the frame at its widest: the frame measured now is never smaller than the
  // one sent. The longest footer is the byte cap's or the "of N" one, whichever is longer.
  const std::uint64_t widest = std::max({offset, largestNumber, limit == 0 ? 0 : offset + limit});
  PageEnd end{widest, 1, widest, false, true, budget.maxBytes};
  const std::string first = pageFirstLine(end);
  std::string footer = pageFooter(end);
  end.cutByBytes = true;
  if (std::string capped = pageFooter(end); capped.size() > footer.size()) footer = std::move(capped);
  // first "\n" header "\n\n" footer close: the lines stand where the header's last "\n" and the
  // footer's blank line meet, so they take the place of one of the frame's lines.
  std::string frame = first;
  frame.append("\n").append(pageHeader(path)).append("\n\n").append(footer).append(kPageClose);
  const core::BoundingLimits room = core::roomLeft(budget, frame);

  PageRoom page;
  // The widest line number shown: the page's last possible line.
  const std::uint64_t lastNumber = std::min(std::max(offset, largestNumber), limit == 0 ? offset : offset + limit - 1);
  page.lineOverhead = core::decimalDigits(lastNumber) + 2;
  page.lines = std::max<std::uint64_t>(1, std::min<std::uint64_t>(limit, room.maxLines + 1));
  page.bytes = std::max<std::size_t>(1, room.maxBytes);
  return page;
}

} // namespace toold::builtins
