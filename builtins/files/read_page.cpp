#include "builtins/files/read_page.h"

#include "core/output/output_budget.h"

#include <algorithm>
#include <charconv>

namespace toold::builtins {

namespace {

// The texts below are built in one string each, with room made once: chains of `a + b` made a
// new string per piece, a dozen allocations per page (pageRoom builds every one of them too).
void appendNumber(std::string& out, std::uint64_t value) {
  char digits[24];
  out.append(digits, std::to_chars(digits, digits + sizeof digits, value).ptr);
}

} // namespace

std::string pageHeader(std::string_view path) {
  constexpr std::string_view kOpen = "<path>", kClose = "</path>\n<type>file</type>\n<content>\n";
  std::string header;
  header.reserve(kOpen.size() + path.size() + kClose.size());
  header.append(kOpen).append(path).append(kClose);
  return header;
}

std::string pageFirstLine(const PageEnd& end) {
  if (!end.cutByToold) return {};
  const std::uint64_t last = end.firstLine + end.shown - 1;
  std::string line;
  line.reserve(128);
  line.append("(Showing lines ");
  appendNumber(line, end.firstLine);
  line += '-';
  appendNumber(line, last);
  line.append(" of ");
  appendNumber(line, end.totalLines);
  line.append(". Continue with offset=");
  appendNumber(line, last + 1);
  line.append(".)");
  return line;
}

std::string pageFooter(const PageEnd& end) {
  const std::uint64_t last = end.firstLine + end.shown - 1;
  std::string footer;
  footer.reserve(128);
  if (!end.cutByBytes && last >= end.totalLines) {
    footer.append("(End of file - total ");
    appendNumber(footer, end.totalLines);
    footer.append(" lines)");
    return footer;
  }
  if (end.cutByBytes) footer.append("(Output capped at ").append(core::budgetSize(end.budgetBytes)).append(". ");
  else footer += '(';
  footer.append("Showing lines ");
  appendNumber(footer, end.firstLine);
  footer += '-';
  appendNumber(footer, last);
  if (!end.cutByBytes) {
    footer.append(" of ");
    appendNumber(footer, end.totalLines);
  }
  footer.append(". Use offset=");
  appendNumber(footer, last + 1);
  footer.append(" to continue.)");
  return footer;
}

PageRoom pageRoom(const core::BoundingLimits& budget, std::string_view path, std::uint64_t offset,
                  std::uint64_t limit, std::uint64_t largestNumber) {
  // Every number of the frame at its widest: the frame measured now is never smaller than the
  // one sent. The longest footer is the byte cap's or the "of N" one, whichever is longer.
  const std::uint64_t widest = std::max({offset, largestNumber, limit == 0 ? 0 : offset + limit});
  PageEnd end{widest, 1, widest, false, true, budget.maxBytes};
  std::string frame = pageFirstLine(end);
  std::string footer = pageFooter(end);
  end.cutByBytes = true;
  if (std::string capped = pageFooter(end); capped.size() > footer.size()) footer = std::move(capped);
  // first "\n" header "\n\n" footer close: the lines stand where the header's last "\n" and the
  // footer's blank line meet, so they take the place of one of the frame's lines.
  frame.reserve(frame.size() + path.size() + footer.size() + 96);
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
