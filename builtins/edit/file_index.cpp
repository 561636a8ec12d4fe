#include "builtins/edit/file_index.h"

#include <algorithm>
#include <functional>

namespace toold::builtins::edit {

FileIndex::FileIndex(std::string_view text) : text_(text), split_(splitLines(text)) {
  starts_.reserve(split_.lines.size());
  shapes_.reserve(split_.lines.size());
  for (const std::string_view line : split_.lines) {
    starts_.push_back(static_cast<std::size_t>(line.data() - text_.data()));
    shapes_.push_back(lineShape(line));
  }
}

int FileIndex::lineNumberAt(std::size_t offset) const {
  const auto after = std::upper_bound(starts_.begin(), starts_.end(), offset);
  return static_cast<int>(std::max<std::ptrdiff_t>(after - starts_.begin(), 1));
}

const std::vector<std::size_t>& FileIndex::nonBlank() {
  if (!nonBlank_) {
    nonBlank_.emplace();
    for (std::size_t i = 0; i < shapes_.size(); ++i)
      if (!shapes_[i].blank) nonBlank_->push_back(i);
  }
  return *nonBlank_;
}

const std::vector<std::string>& FileIndex::keys(LineLevel level) {
  auto& slot = keys_[static_cast<std::size_t>(level)];
  if (!slot) {
    slot.emplace();
    slot->reserve(count());
    for (const std::string_view line : split_.lines) slot->push_back(lineKey(line, level));
  }
  return *slot;
}

const std::vector<std::uint64_t>& FileIndex::prefixHashes(LineLevel level) {
  auto& slot = prefixes_[static_cast<std::size_t>(level)];
  if (!slot) {
    const auto& lineKeys = keys(level);
    slot.emplace();
    slot->reserve(lineKeys.size() + 1);
    slot->push_back(0);
    for (const std::string& key : lineKeys) slot->push_back(slot->back() * kHashBase + hashKey(key));
  }
  return *slot;
}

std::uint64_t hashKey(std::string_view key) { return static_cast<std::uint64_t>(std::hash<std::string_view>{}(key)); }

Find::Find(std::vector<std::string_view> findLines, bool endsWithNewlineChar)
    : lines(std::move(findLines)), endsWithNewline(endsWithNewlineChar) {
  for (const std::string_view line : lines) shapes.push_back(lineShape(line));
  hasText = std::any_of(shapes.begin(), shapes.end(), [](const LineShape& shape) { return !shape.blank; });
}

Find makeFind(std::string_view text) {
  SplitLines split = splitLines(text);
  return Find(std::move(split.lines), split.endsWithNewline);
}

Match windowMatch(const FileIndex& file, std::size_t first, std::size_t lineCount, bool findEndsWithNewline) {
  const std::size_t last = first + lineCount - 1;
  Match match;
  match.span = {file.begin(first), file.end(last), static_cast<int>(first + 1), static_cast<int>(last + 1)};
  if (findEndsWithNewline) {
    if (file.hasNewline(last))
      ++match.span.end;
    else
      match.dropFinalNewline = true;
  }
  match.lines = Match::Lines::Window;
  match.firstLine = first;
  return match;
}

std::vector<std::size_t> fileLinesOf(const Match& match, FileIndex& file, const Find& find) {
  std::vector<std::size_t> out;
  switch (match.lines) {
  case Match::Lines::None: break;
  case Match::Lines::Window:
    for (std::size_t i = 0; i < find.lines.size(); ++i) out.push_back(match.firstLine + i);
    break;
  case Match::Lines::NonBlank: {
    const std::vector<std::size_t>& nonBlank = file.nonBlank();
    std::size_t next = match.firstLine;
    for (std::size_t i = 0; i < find.lines.size(); ++i)
      out.push_back(find.shapes[i].blank || next >= nonBlank.size() ? kNoLine : nonBlank[next++]);
    break;
  }
  }
  return out;
}

std::vector<Match> outOfBudget(std::vector<Match>& found, bool nonOverlapping, Budget& budget) {
  if (!nonOverlapping && found.size() >= 2) return std::move(found);
  budget.exhausted = true;
  return {};
}

} // namespace toold::builtins::edit
