#include "builtins/edit/match_steps.h"

#include "builtins/edit/similarity.h"

#include <algorithm>

namespace toold::builtins::edit {

namespace {

// Every start of `pattern` in `text`, overlapping ones included (Knuth–Morris–Pratt: linear), up
// to kMaxEditMatches + 1 of them: one more than an edit may replace says "too many".
std::vector<std::size_t> occurrences(std::string_view text, std::string_view pattern) {
  std::vector<std::size_t> found;
  if (pattern.empty() || pattern.size() > text.size()) return found;
  std::vector<std::size_t> border(pattern.size(), 0);
  for (std::size_t i = 1, k = 0; i < pattern.size(); ++i) {
    while (k > 0 && pattern[i] != pattern[k]) k = border[k - 1];
    if (pattern[i] == pattern[k]) ++k;
    border[i] = k;
  }
  for (std::size_t i = 0, k = 0; i < text.size(); ++i) {
    while (k > 0 && text[i] != pattern[k]) k = border[k - 1];
    if (text[i] == pattern[k]) ++k;
    if (k == pattern.size()) {
      found.push_back(i + 1 - k);
      if (found.size() > kMaxEditMatches) break;
      k = border[k - 1];
    }
  }
  return found;
}

// Whether the find's non-blank lines all have one indentation (none, usually): its nesting was lost.
bool indentationLost(const std::vector<LineShape>& shapes) {
  const LineShape* first = nullptr;
  for (const LineShape& shape : shapes) {
    if (shape.blank) continue;
    if (first && shape.indent != first->indent) return false;
    if (!first) first = &shape;
  }
  return true;
}

} // namespace

std::vector<Match> exactMatches(const FileIndex& file, std::string_view find) {
  std::vector<Match> out;
  const bool startsIndented = !find.empty() && (find.front() == ' ' || find.front() == '\t');
  for (const std::size_t begin : occurrences(file.text(), find)) {
    // A find that starts with indentation and lands inside a line's deeper indentation is a
    // block written at another indentation, not a fragment: the line steps judge it.
    if (startsIndented && begin > 0) {
      const std::size_t lineStart = file.begin(static_cast<std::size_t>(file.lineNumberAt(begin) - 1));
      const std::string_view before = file.text().substr(lineStart, begin - lineStart);
      if (!before.empty() && before.find_first_not_of(" \t") == std::string_view::npos) continue;
    }
    Match match;
    match.span = {begin, begin + find.size(), file.lineNumberAt(begin), file.lineNumberAt(begin + find.size() - 1)};
    out.push_back(std::move(match));
  }
  return out;
}

std::vector<Match> lineMatches(FileIndex& file, const Find& find, LineLevel level, bool nonOverlapping, Budget& budget) {
  std::vector<Match> out;
  const std::size_t n = find.lines.size();
  if (n == 0 || n > file.count() || !find.hasText) return out;
  std::vector<std::string> findKeys;
  std::uint64_t findHash = 0;
  std::uint64_t power = 1;
  for (const std::string_view line : find.lines) {
    findKeys.push_back(lineKey(line, level));
    findHash = findHash * kHashBase + hashKey(findKeys.back());
    power *= kHashBase;
  }
  const auto& keys = file.keys(level);
  const auto& prefix = file.prefixHashes(level);
  for (std::size_t i = 0; i + n <= file.count(); ++i) {
    if (prefix[i + n] - prefix[i] * power != findHash) continue;
    if (!budget.charge(n)) return outOfBudget(out, nonOverlapping, budget);
    if (!std::equal(findKeys.begin(), findKeys.end(), keys.begin() + static_cast<std::ptrdiff_t>(i))) continue;
    Match match = windowMatch(file, i, n, find.endsWithNewline);
    if (level != LineLevel::TrailingSpace) {
      std::optional<IndentShift> shift = matchIndentation(find.shapes, file.shapes(i, n));
      if (!shift) continue;
      if (shift->shifts()) {
        match.shift = std::make_unique<IndentShift>(std::move(*shift));
        match.reindent = Reindent::Shift;
      }
    }
    out.push_back(std::move(match));
    if (out.size() > kMaxEditMatches) break; // decide() refuses or lists what was found
    if (nonOverlapping) i += n - 1;
  }
  return out;
}

std::vector<Match> blankTolerantMatches(FileIndex& file, const Find& find, LineLevel level, IndentRule rule,
                                        bool nonOverlapping, Budget& budget) {
  std::vector<Match> out;
  std::vector<std::size_t> findLines; // the find's non-blank lines
  for (std::size_t i = 0; i < find.lines.size(); ++i)
    if (!find.shapes[i].blank) findLines.push_back(i);
  const std::size_t m = findLines.size();
  const std::vector<std::size_t>& fileLines = file.nonBlank();
  if (m == 0 || m > fileLines.size()) return out;
  if (rule == IndentRule::Ignore && !indentationLost(find.shapes)) return out;
  std::vector<std::string> findKeys;
  std::vector<LineShape> findShapes;
  for (const std::size_t i : findLines) {
    findKeys.push_back(lineKey(find.lines[i], level));
    findShapes.push_back(find.shapes[i]);
  }
  const auto& keys = file.keys(level);
  std::vector<LineShape> windowShapes(m);
  for (std::size_t p = 0; p + m <= fileLines.size(); ++p) {
    if (keys[fileLines[p]] != findKeys.front()) continue;
    if (!budget.charge(m)) return outOfBudget(out, nonOverlapping, budget);
    bool equal = true;
    for (std::size_t j = 1; j < m && equal; ++j) equal = keys[fileLines[p + j]] == findKeys[j];
    if (!equal) continue;
    for (std::size_t j = 0; j < m; ++j) windowShapes[j] = file.shape(fileLines[p + j]);
    Match match;
    bool fits = rule == IndentRule::Ignore;
    if (rule == IndentRule::Shift || rule == IndentRule::ShiftOrScale) {
      if (std::optional<IndentShift> shift = matchIndentation(findShapes, windowShapes)) {
        fits = true;
        if (shift->shifts()) {
          match.shift = std::make_unique<IndentShift>(std::move(*shift));
          match.reindent = Reindent::Shift;
        }
      }
    }
    if (!fits && (rule == IndentRule::Scale || rule == IndentRule::ShiftOrScale)) {
      if (std::optional<IndentScale> scale = matchIndentScale(findShapes, windowShapes)) {
        fits = true;
        match.scale = std::make_unique<IndentScale>(*scale);
        match.reindent = Reindent::Scale;
      }
    }
    if (!fits) continue;
    if (rule == IndentRule::Ignore) match.reindent = Reindent::Neighbour;
    const std::size_t first = fileLines[p];
    const std::size_t last = fileLines[p + m - 1];
    match.span = {file.begin(first), file.end(last), static_cast<int>(first + 1), static_cast<int>(last + 1)};
    if (find.endsWithNewline) {
      if (file.hasNewline(last))
        ++match.span.end;
      else
        match.dropFinalNewline = true;
    }
    match.lines = Match::Lines::NonBlank;
    match.firstLine = p;
    out.push_back(std::move(match));
    if (out.size() > kMaxEditMatches) break;
    if (nonOverlapping) p += m - 1;
  }
  return out;
}

std::vector<Match> anchorMatches(FileIndex& file, const Find& find, bool nonOverlapping, Budget& budget,
                                 std::vector<MatchedSpan>& nearMisses) {
  std::vector<Match> out;
  const std::size_t n = find.lines.size();
  if (n < 3 || n > file.count()) return out;
  std::vector<std::string> findKeys;
  for (const std::string_view line : find.lines) findKeys.push_back(lineKey(line, LineLevel::Trimmed));
  if (isTrivialAnchor(findKeys.front()) || isTrivialAnchor(findKeys.back())) return out;
  const auto& keys = file.keys(LineLevel::Trimmed);
  const std::size_t middle = n - 2;
  for (std::size_t i = 0; i + n <= file.count(); ++i) {
    if (keys[i] != findKeys.front() || keys[i + n - 1] != findKeys.back()) continue;
    if (!budget.charge(n)) return outOfBudget(out, nonOverlapping, budget);
    std::vector<std::size_t> differing;
    for (std::size_t j = 1; j + 1 < n && differing.size() <= 2; ++j) {
      if (keys[i + j] != findKeys[j]) differing.push_back(j);
    }
    if (differing.size() > 2) continue; // too different to be a match, or a near miss
    double total = static_cast<double>(middle - differing.size());
    bool similar = true;
    for (const std::size_t j : differing) {
      const std::optional<double> similarity = lineSimilarity(keys[i + j], findKeys[j], budget.distanceCells);
      if (!similarity) return outOfBudget(out, nonOverlapping, budget);
      similar = similar && *similarity >= 0.5;
      total += *similarity;
    }
    const double average = total / static_cast<double>(middle);
    const bool fewDiffer = middle < 4 || 2 * differing.size() < middle;
    std::optional<IndentShift> shift = matchIndentation(find.shapes, file.shapes(i, n));
    Match match = windowMatch(file, i, n, find.endsWithNewline);
    if (!similar || !fewDiffer || average < 0.65 || !shift) {
      // The same anchors around a middle that is not far off: another candidate the model may
      // have meant.
      if (average >= 0.5) nearMisses.push_back(match.span);
      continue;
    }
    if (shift->shifts()) {
      match.shift = std::make_unique<IndentShift>(std::move(*shift));
      match.reindent = Reindent::Shift;
    }
    match.differing = differing.size();
    out.push_back(std::move(match));
    if (out.size() > kMaxEditMatches) break; // decide() refuses or lists what was found
    if (nonOverlapping) i += n - 1;
  }
  return out;
}

} // namespace toold::builtins::edit
