#include "builtins/patch/patch_application.h"

#include "builtins/text/punctuation.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <optional>
#include <utility>

namespace toold::builtins {

namespace {

constexpr int kPasses = 5;
constexpr std::size_t kNoLine = static_cast<std::size_t>(-1);

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }

std::string_view trimRight(std::string_view s) {
  while (!s.empty() && isSpace(s.back())) s.remove_suffix(1);
  return s;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && isSpace(s.front())) s.remove_prefix(1);
  return trimRight(s);
}

/// `trimmed` with each run of whitespace inside it as one space (a tab written as spaces).
std::string collapseSpaces(std::string_view trimmed) {
  std::string out;
  out.reserve(trimmed.size());
  for (const char c : trimmed) {
    if (isSpace(c)) {
      if (out.empty() || out.back() != ' ') out.push_back(' ');
    } else {
      out.push_back(c);
    }
  }
  return out;
}

/// A line as a pass compares it: (0) as is, (1) without trailing whitespace, (2) without
/// surrounding whitespace, (3) with runs of whitespace inside it collapsed, (4) with typographic
/// punctuation folded, then as (3).
std::string normalize(std::string_view line, int pass) {
  switch (pass) {
  case 0:
    return std::string(line);
  case 1:
    return std::string(trimRight(line));
  case 2:
    return std::string(trim(line));
  case 3:
    return collapseSpaces(trim(line));
  default:
    return collapseSpaces(trim(foldPunctuation(line)));
  }
}

bool isBlankLine(std::string_view line) { return trim(line).empty(); }

std::vector<std::string> normalizeAll(const std::vector<std::string>& lines, int pass) {
  std::vector<std::string> out;
  out.reserve(lines.size());
  for (const auto& line : lines) out.push_back(normalize(line, pass));
  return out;
}

/// "3" or "3-5" (1-based) for the lines [start, start + length).
std::string lineRange(std::size_t start, std::size_t length) {
  const std::size_t first = start + 1;
  const std::size_t last = start + (length == 0 ? 1 : length);
  return first == last ? std::to_string(first) : std::to_string(first) + "-" + std::to_string(last);
}

struct Replacement {
  std::size_t start = 0;
  std::size_t oldLength = 0;
  std::vector<std::string> newLines;
};

class ChunkApplier {
public:
  ChunkApplier(const std::vector<std::string>& lines, std::string_view path) : lines_(lines), path_(path) {}

  std::optional<ChunkError> apply(const PatchChunk& chunk) {
    if (auto error = seekContexts(chunk)) return error;
    std::vector<std::string> oldLines = chunk.oldLines;
    std::vector<std::string> newLines = chunk.newLines;
    if (oldLines.empty()) {
      // Pure addition: after the last `@@` context line, else at the end of the file.
      const std::size_t start = !chunk.contexts.empty() && !chunk.endOfFile ? cursor_ : lines_.size();
      cursor_ = start;
      replacements_.push_back(Replacement{start, 0, std::move(newLines)});
      return std::nullopt;
    }
    auto found = locate(chunk, oldLines);
    if (error_) return error_;
    if (!found.has_value() && oldLines.back().empty()) {
      // A trailing empty line in the patch that the file does not have (often the patch's own
      // final newline): try again without it.
      oldLines.pop_back();
      if (!newLines.empty() && newLines.back().empty()) newLines.pop_back();
      if (!oldLines.empty()) found = locate(chunk, oldLines);
    }
    if (error_) return error_;
    if (oldLines.empty()) {
      // Only the empty line was old: an addition where the file lacks it.
      const std::size_t start = !chunk.contexts.empty() && !chunk.endOfFile ? cursor_ : lines_.size();
      replacements_.push_back(Replacement{start, 0, std::move(newLines)});
      cursor_ = start;
      return std::nullopt;
    }
    if (!found.has_value() && !chunk.endOfFile) {
      // Last, blank lines anywhere in the old lines or the file are ignored.
      found = locateIgnoringBlankLines(chunk, oldLines);
      if (error_) return error_;
    }
    if (!found.has_value()) return notFound(chunk);
    const std::size_t start = found->fileLines[firstMatched(found->fileLines)];
    const std::size_t end = found->fileLines[lastMatched(found->fileLines)] + 1;
    cursor_ = end;
    replacements_.push_back(Replacement{start, end - start, keepFileLines(chunk, newLines, found->fileLines)});
    return std::nullopt;
  }

  std::vector<std::string> result() const {
    std::vector<std::string> out;
    std::size_t position = 0;
    for (const auto& replacement : replacements_) {
      out.insert(out.end(), lines_.begin() + static_cast<std::ptrdiff_t>(position),
                 lines_.begin() + static_cast<std::ptrdiff_t>(replacement.start));
      out.insert(out.end(), replacement.newLines.begin(), replacement.newLines.end());
      position = replacement.start + replacement.oldLength;
    }
    out.insert(out.end(), lines_.begin() + static_cast<std::ptrdiff_t>(position), lines_.end());
    return out;
  }

private:
  /// Where a chunk's old lines are: per old line, the file line it matched (kNoLine for a blank
  /// line a blank-tolerant pass skipped).
  struct Located {
    std::vector<std::size_t> fileLines;
  };

  static Located window(std::size_t start, std::size_t length) {
    Located located;
    for (std::size_t i = 0; i < length; ++i) located.fileLines.push_back(start + i);
    return located;
  }

  static std::size_t firstMatched(const std::vector<std::size_t>& fileLines) {
    std::size_t i = 0;
    while (fileLines[i] == kNoLine) ++i;
    return i;
  }

  static std::size_t lastMatched(const std::vector<std::size_t>& fileLines) {
    std::size_t i = fileLines.size() - 1;
    while (fileLines[i] == kNoLine) --i;
    return i;
  }

  /// The chunk's new lines, with its context lines as the file spells them (trailing spaces,
  /// curly quotes) when they matched loosely. When blank lines were skipped to match, the file's
  /// blank lines stay where they are: the patch's blank context lines are dropped, and the file's
  /// blank lines between two context lines are written around the lines the chunk changes there
  /// (on the side of the changed old lines they were on).
  std::vector<std::string> keepFileLines(const PatchChunk& chunk, const std::vector<std::string>& newLines,
                                         const std::vector<std::size_t>& fileLines) const {
    std::vector<std::string> out;
    std::vector<std::string> pending; // new lines since the last context line written from the file
    std::size_t previous = kNoLine; // the file line of that context line
    std::vector<std::size_t> matched; // the file lines old lines matched, in order
    for (const std::size_t line : fileLines)
      if (line != kNoLine) matched.push_back(line);
    const auto isMatched = [&](std::size_t k) { return std::binary_search(matched.begin(), matched.end(), k); };
    for (std::size_t i = 0; i < newLines.size(); ++i) {
      const int context = i < chunk.contextOf.size() ? chunk.contextOf[i] : -1;
      const auto old = static_cast<std::size_t>(context);
      if (context >= 0 && old < fileLines.size() && fileLines[old] != kNoLine) {
        const std::size_t line = fileLines[old];
        // The chunk changes lines here: the file's blank lines its old lines skipped stay on
        // their side of the changed lines (before them when the old lines here have none).
        const std::size_t from = previous == kNoLine ? line : previous + 1;
        std::size_t firstOld = from;
        while (firstOld < line && !isMatched(firstOld)) ++firstOld;
        for (std::size_t k = from; k < firstOld; ++k) out.push_back(lines_[k]);
        out.insert(out.end(), pending.begin(), pending.end());
        for (std::size_t k = firstOld; k < line; ++k)
          if (!isMatched(k)) out.push_back(lines_[k]);
        pending.clear();
        out.push_back(lines_[line]);
        previous = line;
      } else if (context >= 0 && old < fileLines.size()) {
        // A blank context line the match skipped: where blank lines are, the file says.
        continue;
      } else {
        pending.push_back(newLines[i]);
      }
    }
    out.insert(out.end(), pending.begin(), pending.end());
    return out;
  }

  const std::vector<std::string>& normalized(int pass) {
    auto& slot = normalized_[static_cast<std::size_t>(pass)];
    if (!slot.has_value()) slot = normalizeAll(lines_, pass);
    return *slot;
  }

  static std::string chunkName(const PatchChunk& chunk) { return "chunk at patch line " + std::to_string(chunk.line); }

  std::string afterCursor() const {
    return cursor_ == 0 ? std::string() : " after line " + std::to_string(cursor_);
  }

  /// Moves the cursor past each `@@` context line in turn. The contexts are trimmed by the
  /// parser, so they are compared trimmed (then folded): the first such line at or after the
  /// cursor is the one.
  std::optional<ChunkError> seekContexts(const PatchChunk& chunk) {
    for (const auto& context : chunk.contexts) {
      std::optional<std::size_t> found;
      for (int pass = 2; pass < kPasses && !found.has_value(); ++pass) {
        const std::string wanted = normalize(context, pass);
        const auto& file = normalized(pass);
        for (std::size_t i = cursor_; i < file.size(); ++i) {
          if (file[i] == wanted) {
            found = i;
            break;
          }
        }
      }
      if (!found.has_value()) {
        return ChunkError{chunkName(chunk) + ": could not find the context line '@@ " + context + "' in " +
                          std::string(path_) + afterCursor()};
      }
      cursor_ = *found + 1;
    }
    return std::nullopt;
  }

  bool matchesAt(const std::vector<std::string>& file, const std::vector<std::string>& wanted,
                 std::size_t start) const {
    if (start + wanted.size() > file.size()) return false;
    for (std::size_t i = 0; i < wanted.size(); ++i) {
      if (file[start + i] != wanted[i]) return false;
    }
    return true;
  }

  std::optional<std::size_t> findFrom(const std::vector<std::string>& file, const std::vector<std::string>& wanted,
                                      std::size_t from, std::size_t before) const {
    for (std::size_t s = from; s + wanted.size() <= file.size() && s < before; ++s) {
      if (matchesAt(file, wanted, s)) return s;
    }
    return std::nullopt;
  }

  void ambiguous(const PatchChunk& chunk, const std::string& first, const std::string& second, int pass) {
    error_ = ChunkError{chunkName(chunk) + " matches lines " + first + " and " + second + " of " + std::string(path_) +
                        (pass > 0 ? " (" + passName(pass) + ")" : std::string()) +
                        "; add an '@@ <line>' context or more context lines to say which"};
  }

  static std::string passName(int pass) {
    switch (pass) {
    case 1: return "ignoring trailing whitespace";
    case 2: return "ignoring indentation";
    case 3: return "ignoring whitespace inside lines";
    default: return "ignoring typographic punctuation";
    }
  }

  /// Where `oldLines` are: the first pass that finds them decides; a second place in that pass
  /// is an ambiguity (set in error_), except after an `@@` context, which is the patch's own
  /// choice: there the first place at or after it wins. End-of-file chunks only look at the end.
  std::optional<Located> locate(const PatchChunk& chunk, const std::vector<std::string>& oldLines) {
    for (int pass = 0; pass < kPasses; ++pass) {
      const auto& file = normalized(pass);
      std::vector<std::string> wanted;
      wanted.reserve(oldLines.size());
      for (const auto& line : oldLines) wanted.push_back(normalize(line, pass));
      if (chunk.endOfFile) {
        if (file.size() < wanted.size() || file.size() - wanted.size() < cursor_) return std::nullopt;
        const std::size_t start = file.size() - wanted.size();
        if (matchesAt(file, wanted, start)) return window(start, wanted.size());
        continue;
      }
      const auto first = findFrom(file, wanted, cursor_, file.size());
      if (!first.has_value()) continue;
      if (chunk.contexts.empty()) {
        if (const auto second = findFrom(file, wanted, *first + 1, file.size())) {
          ambiguous(chunk, lineRange(*first, wanted.size()), lineRange(*second, wanted.size()), pass);
          return std::nullopt;
        }
      }
      return window(*first, wanted.size());
    }
    return std::nullopt;
  }

  /// As locate, with blank lines anywhere ignored: the old lines' non-blank lines, in order, on
  /// consecutive non-blank lines of the file, each pass in turn.
  std::optional<Located> locateIgnoringBlankLines(const PatchChunk& chunk, const std::vector<std::string>& oldLines) {
    std::vector<std::size_t> wantedLines; // the old lines that are not blank
    for (std::size_t i = 0; i < oldLines.size(); ++i)
      if (!isBlankLine(oldLines[i])) wantedLines.push_back(i);
    if (wantedLines.empty()) return std::nullopt;
    std::vector<std::size_t> fileLines; // the file's lines that are not blank, from the cursor
    for (std::size_t i = cursor_; i < lines_.size(); ++i)
      if (!isBlankLine(lines_[i])) fileLines.push_back(i);
    const std::size_t m = wantedLines.size();
    for (int pass = 0; pass < kPasses; ++pass) {
      const auto& file = normalized(pass);
      std::vector<std::string> wanted;
      for (const std::size_t i : wantedLines) wanted.push_back(normalize(oldLines[i], pass));
      std::optional<std::size_t> found;
      for (std::size_t p = 0; p + m <= fileLines.size(); ++p) {
        bool equal = true;
        for (std::size_t j = 0; j < m && equal; ++j) equal = file[fileLines[p + j]] == wanted[j];
        if (!equal) continue;
        if (found) {
          const auto range = [&](std::size_t at) {
            return lineRange(fileLines[at], fileLines[at + m - 1] - fileLines[at] + 1);
          };
          ambiguous(chunk, range(*found), range(p), pass);
          return std::nullopt;
        }
        found = p;
        if (!chunk.contexts.empty()) break;
      }
      if (!found) continue;
      Located located;
      located.fileLines.assign(oldLines.size(), kNoLine);
      for (std::size_t j = 0; j < m; ++j) located.fileLines[wantedLines[j]] = fileLines[*found + j];
      return located;
    }
    return std::nullopt;
  }

  /// The "could not find" message: the lines, where they are when above the cursor, and the
  /// window after the cursor with the most lines equal once trimmed and folded.
  ChunkError notFound(const PatchChunk& chunk) {
    const auto& oldLines = chunk.oldLines;
    std::string message = chunkName(chunk) + ": could not find these lines in " + std::string(path_) +
                          (chunk.endOfFile ? " at its end" : afterCursor()) + ":";
    for (const auto& line : oldLines) message += "\n  " + line;

    const auto& file = normalized(kPasses - 1);
    std::vector<std::string> wanted;
    for (const auto& line : oldLines) wanted.push_back(normalize(line, kPasses - 1));
    if (cursor_ > 0) {
      if (const auto earlier = findFrom(file, wanted, 0, cursor_)) {
        message += "\nThey are at lines " + lineRange(*earlier, wanted.size()) + ", above line " +
                   std::to_string(cursor_ + 1) +
                   " where this chunk's search starts (after the previous chunk or '@@' context); chunks "
                   "must follow the order of the file.";
        return ChunkError{message};
      }
    }

    std::size_t bestStart = 0;
    std::size_t bestLength = 0;
    std::size_t bestScore = 0;
    for (std::size_t s = cursor_; s < file.size(); ++s) {
      const std::size_t length = std::min(wanted.size(), file.size() - s);
      std::size_t score = 0;
      for (std::size_t i = 0; i < length; ++i) {
        if (!wanted[i].empty() && file[s + i] == wanted[i]) ++score;
      }
      if (score > bestScore) {
        bestScore = score;
        bestStart = s;
        bestLength = length;
      }
    }
    if (bestScore > 0) {
      message += "\nThe nearest lines are " + lineRange(bestStart, bestLength) + ":";
      for (std::size_t i = bestStart; i < bestStart + bestLength; ++i) {
        message += "\n" + std::to_string(i + 1) + ": " + lines_[i];
      }
    }
    return ChunkError{message};
  }

  const std::vector<std::string>& lines_;
  std::string_view path_;
  std::size_t cursor_ = 0;
  std::vector<Replacement> replacements_;
  std::array<std::optional<std::vector<std::string>>, kPasses> normalized_;
  std::optional<ChunkError> error_;
};

} // namespace

std::variant<std::vector<std::string>, ChunkError> applyChunks(const std::vector<std::string>& lines,
                                                               const std::vector<PatchChunk>& chunks,
                                                               std::string_view path) {
  ChunkApplier applier(lines, path);
  for (const auto& chunk : chunks) {
    if (auto error = applier.apply(chunk)) return *error;
  }
  return applier.result();
}

} // namespace toold::builtins
