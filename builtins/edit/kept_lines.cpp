#include "builtins/edit/kept_lines.h"

#include "builtins/edit/file_index.h"
#include "builtins/edit/line_text.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace toold::builtins::edit {

namespace {

// Above this many (find line, new line) pairs the middle of the two is not aligned.
constexpr std::size_t kAlignBudget = 1'000'000;

bool sameLine(std::string_view a, std::string_view b) { return trimRight(a) == trimRight(b); }

// Pairs (new line, find line) of a longest common subsequence of the non-blank lines.
std::vector<std::pair<std::size_t, std::size_t>> align(std::span<const std::string_view> find,
                                                       std::span<const std::string_view> replacement) {
  std::vector<std::size_t> f;
  std::vector<std::size_t> r;
  for (std::size_t i = 0; i < find.size(); ++i)
    if (!isBlank(find[i])) f.push_back(i);
  for (std::size_t i = 0; i < replacement.size(); ++i)
    if (!isBlank(replacement[i])) r.push_back(i);
  std::vector<std::pair<std::size_t, std::size_t>> head;
  std::vector<std::pair<std::size_t, std::size_t>> tail;
  std::size_t fb = 0;
  std::size_t rb = 0;
  std::size_t fe = f.size();
  std::size_t re = r.size();
  while (fb < fe && rb < re && sameLine(find[f[fb]], replacement[r[rb]])) head.emplace_back(r[rb++], f[fb++]);
  while (fb < fe && rb < re && sameLine(find[f[fe - 1]], replacement[r[re - 1]])) tail.emplace_back(r[--re], f[--fe]);
  const std::size_t n = fe - fb;
  const std::size_t m = re - rb;
  if (n > 0 && m > 0 && n * m <= kAlignBudget) {
    // lengths[i][j]: the LCS of find lines [fb+i, fe) and new lines [rb+j, re).
    std::vector<std::vector<std::size_t>> lengths(n + 1, std::vector<std::size_t>(m + 1, 0));
    for (std::size_t i = n; i-- > 0;) {
      for (std::size_t j = m; j-- > 0;) {
        lengths[i][j] = sameLine(find[f[fb + i]], replacement[r[rb + j]])
                            ? lengths[i + 1][j + 1] + 1
                            : std::max(lengths[i + 1][j], lengths[i][j + 1]);
      }
    }
    for (std::size_t i = 0, j = 0; i < n && j < m;) {
      if (sameLine(find[f[fb + i]], replacement[r[rb + j]])) {
        head.emplace_back(r[rb + j], f[fb + i]);
        ++i;
        ++j;
      } else if (lengths[i + 1][j] >= lengths[i][j + 1]) {
        ++i;
      } else {
        ++j;
      }
    }
  }
  head.insert(head.end(), tail.rbegin(), tail.rend());
  return head;
}

} // namespace

std::vector<std::pair<std::size_t, std::size_t>> keptLines(std::span<const std::string_view> findLines,
                                                          std::string_view newString) {
  const SplitLines split = splitLines(newString);
  return align(findLines, split.lines);
}

std::string keepFileLines(std::span<const std::string_view> findLines, std::string_view newString,
                          std::span<const std::pair<std::size_t, std::size_t>> aligned,
                          std::span<const std::string_view> fileLines, std::span<const std::size_t> fileLineOf,
                          const IndentNewLine& indent) {
  const SplitLines split = splitLines(newString);
  const auto& lines = split.lines;
  // Anchors: the kept lines, and between two of them the lines newString changes one for one
  // (as many non-blank lines as the find has there). A changed anchor is written as the model
  // wrote it, but the file's blank lines around it are kept like a kept line's.
  struct Anchor {
    std::size_t newLine;
    std::size_t findLine;
    bool kept;
  };
  std::vector<Anchor> anchors;
  const auto nonBlank = [](auto text, std::size_t from, std::size_t to) {
    std::vector<std::size_t> result;
    for (std::size_t i = from; i < to; ++i)
      if (!isBlank(text[i])) result.push_back(i);
    return result;
  };
  const auto pairInPlace = [&](std::size_t newFrom, std::size_t newTo, std::size_t findFrom, std::size_t findTo) {
    const auto changedNew = nonBlank(std::span(lines), newFrom, newTo);
    const auto changedFind = nonBlank(findLines, findFrom, findTo);
    if (changedNew.size() != changedFind.size()) return;
    for (std::size_t i = 0; i < changedNew.size(); ++i) anchors.push_back({changedNew[i], changedFind[i], false});
  };
  std::size_t newFrom = 0;
  std::size_t findFrom = 0;
  for (const auto& [newLine, findLine] : aligned) {
    pairInPlace(newFrom, newLine, findFrom, findLine);
    anchors.push_back({newLine, findLine, true});
    newFrom = newLine + 1;
    findFrom = findLine + 1;
  }
  pairInPlace(newFrom, lines.size(), findFrom, findLines.size());
  std::erase_if(anchors, [&](const Anchor& anchor) {
    return anchor.findLine >= fileLineOf.size() || fileLineOf[anchor.findLine] == kNoLine;
  });

  std::vector<std::string> out;
  std::size_t previousFile = kNoLine;
  std::size_t previousFind = kNoLine;
  std::size_t next = 0; // the next line of newString to write
  const auto writeNew = [&](std::size_t until, std::size_t nextFile) {
    for (; next < until; ++next) {
      out.push_back(isBlank(lines[next]) ? std::string(lines[next])
                                         : indent(lines[next], previousFile, previousFind, nextFile));
    }
  };
  const auto allBlank = [](auto begin, auto end) {
    return std::all_of(begin, end, [](std::string_view line) { return isBlank(line); });
  };
  for (const auto& [newLine, findLine, kept] : anchors) {
    const std::size_t fileLine = fileLineOf[findLine];
    // Between two anchors, newString left the find's blank lines as they were: the file's
    // blank lines there stay as the file has them.
    bool fileSpacing = previousFile != kNoLine && previousFile < fileLine && newLine - next == findLine - previousFind - 1;
    if (fileSpacing) {
      fileSpacing = allBlank(lines.begin() + static_cast<std::ptrdiff_t>(next), lines.begin() + static_cast<std::ptrdiff_t>(newLine)) &&
                    allBlank(findLines.begin() + static_cast<std::ptrdiff_t>(previousFind + 1),
                             findLines.begin() + static_cast<std::ptrdiff_t>(findLine)) &&
                    allBlank(fileLines.begin() + static_cast<std::ptrdiff_t>(previousFile + 1),
                             fileLines.begin() + static_cast<std::ptrdiff_t>(fileLine));
    }
    if (fileSpacing) {
      for (std::size_t i = previousFile + 1; i < fileLine; ++i) out.emplace_back(fileLines[i]);
      next = newLine;
    } else {
      writeNew(newLine, fileLine);
    }
    out.push_back(kept ? std::string(fileLines[fileLine]) : indent(lines[newLine], previousFile, previousFind, fileLine));
    next = newLine + 1;
    previousFile = fileLine;
    previousFind = findLine;
  }
  writeNew(lines.size(), kNoLine);
  std::string text;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (i > 0) text.push_back('\n');
    text += out[i];
  }
  if (split.endsWithNewline) text.push_back('\n');
  return text;
}

} // namespace toold::builtins::edit
