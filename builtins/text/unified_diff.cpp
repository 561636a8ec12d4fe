#include "builtins/text/unified_diff.h"

#include "builtins/text/line_script.h"
#include "core/base/newline_count.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <limits>
#include <vector>

namespace toold::builtins {

namespace {

/// A hunk as ranges of the script: the last `lead` lines of the equal run before `firstRun`,
/// the runs [firstRun, endRun) whole, and the first `trail` lines of the equal run `endRun`.
struct Hunk {
  std::size_t oldStart, oldLines, newStart, newLines;
  std::size_t firstRun, endRun, lead, trail;
};

/// jsdiff's structuredPatch, run for run: a hunk opens at a change with up to `context` lines
/// before it, swallows an equal run of at most 2 * context lines between changes, and closes
/// with up to `context` lines after the last change. `runs` ends with an empty equal run.
std::vector<Hunk> hunksOf(const std::vector<LineRun>& runs, std::size_t context, int& additions, int& deletions) {
  std::vector<Hunk> hunks;
  std::size_t oldRangeStart = 0;  // 0: no hunk open
  std::size_t newRangeStart = 0;
  std::size_t oldLine = 1;
  std::size_t newLine = 1;
  Hunk open{};
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const LineRun& run = runs[r];
    if (run.kind != LineRunKind::Equal) {
      if (oldRangeStart == 0) {
        oldRangeStart = oldLine;
        newRangeStart = newLine;
        open = Hunk{};
        open.firstRun = r;
        if (r > 0) {
          open.lead = std::min(runs[r - 1].count, context);
          oldRangeStart -= open.lead;
          newRangeStart -= open.lead;
        }
      }
      const bool isAdded = run.kind == LineRunKind::Added;
      (isAdded ? additions : deletions) += static_cast<int>(run.count);
      (isAdded ? newLine : oldLine) += run.count;
      continue;
    }
    if (oldRangeStart != 0 && !(run.count <= 2 * context && r + 2 < runs.size())) {
      open.trail = std::min(run.count, context);
      open.endRun = r;
      open.oldStart = oldRangeStart;
      open.oldLines = oldLine - oldRangeStart + open.trail;
      open.newStart = newRangeStart;
      open.newLines = newLine - newRangeStart + open.trail;
      hunks.push_back(open);
      oldRangeStart = 0;
      newRangeStart = 0;
    }
    oldLine += run.count;
    newLine += run.count;
  }
  return hunks;
}

/// A diff ready to be written: the script laid out as hunks over views of both texts.
struct Layout {
  std::vector<std::string_view> oldLines, newLines;
  std::vector<LineRun> runs;
  std::vector<Hunk> hunks;
  int additions = 0, deletions = 0;

  /// Calls `line(marker, text)` for each body line of `hunk` (text with its '\n', if it has one).
  template <class Line>
  void forEachBodyLine(const Hunk& hunk, Line&& line) const {
    if (hunk.lead > 0) {
      const LineRun& previous = runs[hunk.firstRun - 1];
      for (std::size_t i = previous.start + previous.count - hunk.lead; i < previous.start + previous.count; ++i)
        line(' ', oldLines[i]);
    }
    for (std::size_t r = hunk.firstRun; r < hunk.endRun; ++r) {
      const LineRun& run = runs[r];
      const char marker = run.kind == LineRunKind::Equal ? ' ' : run.kind == LineRunKind::Added ? '+' : '-';
      const auto& lines = run.kind == LineRunKind::Added ? newLines : oldLines;
      for (std::size_t i = run.start; i < run.start + run.count; ++i) line(marker, lines[i]);
    }
    const LineRun& closing = runs[hunk.endRun];
    for (std::size_t i = closing.start; i < closing.start + hunk.trail; ++i) line(' ', oldLines[i]);
  }

  /// Writes the diff to `out(piece)`, each body line's indentation cut by up to `strip`
  /// characters (trimDiffIndentation's work, done on the way).
  template <class Out>
  void write(std::string_view path, std::size_t strip, Out&& out) const {
    out("Index: ");
    out(path);
    static const std::string rule = "\n" + std::string(67, '=') + "\n--- ";
    out(rule);
    out(path);
    out("\n+++ ");
    out(path);
    out("\n");
    for (const Hunk& hunk : hunks) {
      // Unified diff quirk (kept by jsdiff): an empty side names the line before it.
      const std::string header = "@@ -" + std::to_string(hunk.oldLines == 0 ? hunk.oldStart - 1 : hunk.oldStart) + "," +
                                 std::to_string(hunk.oldLines) + " +" +
                                 std::to_string(hunk.newLines == 0 ? hunk.newStart - 1 : hunk.newStart) + "," +
                                 std::to_string(hunk.newLines) + " @@\n";
      out(header);
      forEachBodyLine(hunk, [&](char marker, std::string_view text) {
        std::size_t cut = 0;
        while (cut < strip && cut < text.size() && (text[cut] == ' ' || text[cut] == '\t')) ++cut;
        out(std::string_view(&marker, 1));
        out(text.substr(cut));
        if (text.empty() || text.back() != '\n') out("\n\\ No newline at end of file\n");
      });
    }
  }
};

Layout layOut(std::string_view before, std::string_view after, int context) {
  Layout layout;
  layout.oldLines = splitLines(before);
  layout.newLines = splitLines(after);
  layout.runs = lineScript(layout.oldLines, layout.newLines);
  layout.runs.push_back({LineRunKind::Equal, layout.oldLines.size(), 0});  // closes the last hunk
  layout.hunks = hunksOf(layout.runs, context > 0 ? static_cast<std::size_t>(context) : 0, layout.additions,
                         layout.deletions);
  return layout;
}

bool isIndent(char c) { return c == ' ' || c == '\t'; }
bool isBlank(std::string_view text) {
  return text.find_first_not_of(" \t\r\f\v") == std::string_view::npos;
}

/// Reads the counts of a hunk header "@@ -a[,b] +c[,d] @@" (an omitted count is 1).
bool parseHunkHeader(std::string_view line, std::size_t& oldLines, std::size_t& newLines) {
  const auto readRange = [&line](char sign, std::size_t& count) {
    const std::size_t at = line.find(sign);
    if (at == std::string_view::npos) return false;
    std::size_t i = at + 1;
    while (i < line.size() && line[i] >= '0' && line[i] <= '9') ++i;
    count = 1;
    if (i < line.size() && line[i] == ',') {
      count = 0;
      for (++i; i < line.size() && line[i] >= '0' && line[i] <= '9'; ++i) {
        count = count * 10 + static_cast<std::size_t>(line[i] - '0');
      }
    }
    line = line.substr(i);
    return true;
  };
  return readRange('-', oldLines) && readRange('+', newLines);
}

/// The indentation trimDiffIndentation would strip from every body line of `layout`: the least
/// any non-blank one has (0: none to strip).
std::size_t commonIndentation(const Layout& layout) {
  std::size_t common = std::numeric_limits<std::size_t>::max();
  for (const Hunk& hunk : layout.hunks) {
    layout.forEachBodyLine(hunk, [&](char, std::string_view text) {
      if (!text.empty() && text.back() == '\n') text.remove_suffix(1);
      if (common == 0 || isBlank(text)) return;
      std::size_t indent = 0;
      while (indent < text.size() && isIndent(text[indent])) ++indent;
      common = std::min(common, indent);
    });
  }
  return common == std::numeric_limits<std::size_t>::max() ? 0 : common;
}

/// boundedDiff's cut of a text of which `head` is the start (all of it when `total` is its size)
/// and `newlinesAfter` the '\n's after the head.
std::string cutDiff(std::string_view head, std::size_t total, std::size_t newlinesAfter, std::size_t maxBytes) {
  if (total <= maxBytes) return std::string(head);
  std::size_t cut = head.rfind('\n', maxBytes);
  if (cut == std::string_view::npos) cut = 0;
  const std::size_t omitted = newlinesAfter + static_cast<std::size_t>(std::count(head.begin() + static_cast<std::ptrdiff_t>(cut), head.end(), '\n'));
  std::string result(head.substr(0, cut));
  result += "\n... (diff cut here; " + std::to_string(omitted) + " more lines)";
  return result;
}

} // namespace

UnifiedDiff unifiedDiff(std::string_view path, std::string_view before, std::string_view after, int context) {
  UnifiedDiff diff;
  if (before == after) {
    diff.text.reserve(4 * path.size() + 96);
    Layout{}.write(path, 0, [&](std::string_view piece) { diff.text.append(piece); });
    return diff;
  }
  const Layout layout = layOut(before, after, context);
  std::size_t size = 0;
  layout.write(path, 0, [&](std::string_view piece) { size += piece.size(); });
  diff.text.reserve(size); // sized once: a large diff grown by doubling was copied as often
  layout.write(path, 0, [&](std::string_view piece) { diff.text.append(piece); });
  diff.additions = layout.additions;
  diff.deletions = layout.deletions;
  return diff;
}

ShownDiff shownDiff(std::string_view path, std::string_view before, std::string_view after, std::size_t maxBytes) {
  // A path with a line break would read as more lines than it is; trimDiffIndentation's own
  // reading of the text is then the one to follow.
  if (path.find('\n') != std::string_view::npos) {
    auto full = unifiedDiff(path, before, after);
    return {boundedDiff(trimDiffIndentation(full.text), maxBytes), full.additions, full.deletions};
  }
  const Layout layout = before == after ? Layout{} : layOut(before, after, 3);
  const std::size_t strip = commonIndentation(layout);
  std::string head;
  std::size_t total = 0;
  std::size_t newlinesAfter = 0;
  layout.write(path, strip, [&](std::string_view piece) {
    total += piece.size();
    if (head.size() <= maxBytes) {
      const std::size_t take = std::min(piece.size(), maxBytes + 1 - head.size());
      head.append(piece.substr(0, take));
      piece.remove_prefix(take);
    }
    newlinesAfter += static_cast<std::size_t>(core::countNewlines(piece.data(), piece.size()));
  });
  return {cutDiff(head, total, newlinesAfter, maxBytes), layout.additions, layout.deletions};
}

std::string boundedDiff(std::string_view diff, std::size_t maxBytes) {
  if (diff.size() <= maxBytes) return std::string(diff);
  const std::string_view head = diff.substr(0, maxBytes + 1);
  const std::string_view rest = diff.substr(head.size());
  return cutDiff(head, diff.size(), static_cast<std::size_t>(std::count(rest.begin(), rest.end(), '\n')), maxBytes);
}

std::string trimDiffIndentation(std::string_view diff) {
  // Walks the hunks by their header counts, so a removed "-- x" line ("--- x") is still body and
  // the file headers never are.
  struct Line {
    std::string_view text;
    bool body;
  };
  std::vector<Line> lines;
  std::size_t oldLeft = 0;
  std::size_t newLeft = 0;
  std::size_t common = std::numeric_limits<std::size_t>::max();
  for (std::size_t start = 0; start < diff.size();) {
    const std::size_t newline = diff.find('\n', start);
    const std::size_t end = newline == std::string_view::npos ? diff.size() : newline;
    const std::string_view text = diff.substr(start, end - start);
    start = end + 1;
    bool body = false;
    const bool inHunk = oldLeft > 0 || newLeft > 0;
    if (text.starts_with("@@ ")) {
      if (!parseHunkHeader(text, oldLeft, newLeft)) oldLeft = newLeft = 0;
    } else if (inHunk && !text.empty() && (text[0] == ' ' || text[0] == '-' || text[0] == '+')) {
      body = true;
      if (text[0] != '+' && oldLeft > 0) --oldLeft;
      if (text[0] != '-' && newLeft > 0) --newLeft;
      const std::string_view content = text.substr(1);
      if (!isBlank(content)) {
        std::size_t indent = 0;
        while (indent < content.size() && isIndent(content[indent])) ++indent;
        common = std::min(common, indent);
      }
    } else if (inHunk && text.empty()) {
      if (oldLeft > 0) --oldLeft;  // an empty context line whose ' ' was lost
      if (newLeft > 0) --newLeft;
    } else if (!text.starts_with('\\')) {
      oldLeft = newLeft = 0;  // a line of another kind ends the hunk
    }
    lines.push_back({text, body});
  }
  if (common == 0 || common == std::numeric_limits<std::size_t>::max()) return std::string(diff);

  std::string out;
  out.reserve(diff.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view text = lines[i].text;
    if (lines[i].body) {
      std::size_t strip = 0;
      while (strip < common && 1 + strip < text.size() && isIndent(text[1 + strip])) ++strip;
      out.push_back(text[0]);
      text = text.substr(1 + strip);
    }
    out.append(text);
    if (i + 1 < lines.size() || (!diff.empty() && diff.back() == '\n')) out.push_back('\n');
  }
  return out;
}

} // namespace toold::builtins
