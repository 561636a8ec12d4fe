#include "builtins/edit/closest_block.h"

#include "builtins/edit/line_text.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

namespace toold::builtins::edit {

namespace {

// Above this many (file line, find line) pairs the closest block is looked for approximately.
constexpr std::size_t kClosestBudget = 4'000'000;
// The closest block's lines are cut to this many bytes in the error message.
constexpr std::size_t kClosestLineBytes = 2000;

// `line` as "<n>: <line>", cut (at a character boundary) when very long.
std::string numberedLine(std::size_t number, std::string_view line) {
  std::string out = std::to_string(number) + ": ";
  if (line.size() <= kClosestLineBytes) return out + std::string(line);
  std::size_t size = kClosestLineBytes;
  while (size > 0 && (static_cast<unsigned char>(line[size]) & 0xC0u) == 0x80u) --size;
  return out + std::string(line.substr(0, size)) + "…";
}

} // namespace

std::optional<ClosestBlock> closestBlock(std::span<const std::string_view> fileLines,
                                         std::span<const std::string> trimmedFileLines,
                                         std::span<const std::string_view> findLines) {
  const std::size_t n = findLines.size();
  const std::size_t total = fileLines.size();
  if (n == 0 || total == 0 || trimmedFileLines.size() != total) return std::nullopt;
  std::unordered_map<std::string_view, std::vector<std::size_t>> positions;
  for (std::size_t j = 0; j < n; ++j) {
    const std::string_view key = trimBoth(findLines[j]);
    if (!key.empty()) positions[key].push_back(j);
  }
  if (positions.empty()) return std::nullopt;
  const std::size_t windows = total >= n ? total - n + 1 : 1;
  std::vector<const std::vector<std::size_t>*> hits(total, nullptr);
  std::size_t work = 0;
  for (std::size_t line = 0; line < total; ++line) {
    if (const auto it = positions.find(trimmedFileLines[line]); it != positions.end()) {
      hits[line] = &it->second;
      work += it->second.size();
    }
  }
  std::vector<std::size_t> counts(windows, 0);
  if (work <= kClosestBudget) {
    // Each file line equal to find line j counts for the window starting j lines earlier.
    for (std::size_t line = 0; line < total; ++line) {
      if (!hits[line]) continue;
      for (const std::size_t j : *hits[line]) {
        if (j <= line && line - j < windows) ++counts[line - j];
      }
    }
  } else {
    // Too many repeated lines: count the window's lines that occur anywhere in the find.
    const std::size_t width = std::min(n, total);
    std::size_t sum = 0;
    for (std::size_t line = 0; line < total; ++line) {
      sum += hits[line] ? 1 : 0;
      if (line >= width) sum -= hits[line - width] ? 1 : 0;
      if (line + 1 >= width && line + 1 - width < windows) counts[line + 1 - width] = sum;
    }
  }
  const auto best = static_cast<std::size_t>(std::max_element(counts.begin(), counts.end()) - counts.begin());
  const std::size_t last = std::min(best + n, total) - 1;
  ClosestBlock block;
  block.firstLine = static_cast<int>(best + 1);
  block.lastLine = static_cast<int>(last + 1);
  for (std::size_t line = best; line <= last; ++line) {
    const std::string_view findKey = trimBoth(findLines[line - best]);
    if (!findKey.empty() && trimmedFileLines[line] == findKey) ++block.equalLines;
    if (line > best) block.text += '\n';
    block.text += numberedLine(line + 1, fileLines[line]);
  }
  if (block.equalLines == 0) return std::nullopt;
  return block;
}

} // namespace toold::builtins::edit
