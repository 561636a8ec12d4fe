#include "builtins/patch/patch_application.h"

#include "builtins/text/punctuation.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <optional>
#include <utility>

namespace toold::builtins {

namespace {

constexpr int kPasses = 4;

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }

std::string_view trimRight(std::string_view s) {
  while (!s.empty() && isSpace(s.back())) s.remove_suffix(1);
  return s;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && isSpace(s.front())) s.remove_prefix(1);
  return trimRight(s);
}

/// A line as a pass compares it: (0) as is, (1) without trailing whitespace, (2) without
/// surrounding whitespace, (3) with typographic punctuation folded, then trimmed.
std::string normalize(std::string_view line, int pass) {
  switch (pass) {
  case 0:
    return std::string(line);
  case 1:
    return std::string(trimRight(line));
  case 2:
    return std::string(trim(line));
  default:
    return std::string(trim(foldPunctuation(line)));
  }
}

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
    std::optional<std::size_t> start;
    if (!oldLines.empty()) {
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
      if (found.has_value()) start = found;
      else if (!oldLines.empty()) return notFound(chunk);
    }
    if (!start.has_value()) {
      // Pure addition: after the last `@@` context line, else at the end of the file.
      start = !chunk.contexts.empty() && !chunk.endOfFile ? cursor_ : lines_.size();
    }
    // Context lines keep the file's spelling (trailing spaces, curly quotes) when they matched loosely.
    for (std::size_t i = 0; i < newLines.size() && i < chunk.contextOf.size(); ++i) {
      const int old = chunk.contextOf[i];
      if (old >= 0 && static_cast<std::size_t>(old) < oldLines.size() && *start + static_cast<std::size_t>(old) < lines_.size())
        newLines[i] = lines_[*start + static_cast<std::size_t>(old)];
    }
    cursor_ = *start + oldLines.size();
    replacements_.push_back(Replacement{*start, oldLines.size(), std::move(newLines)});
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

  /// Where `oldLines` start: the first pass that finds them decides; a second place in that
  /// pass is an ambiguity (set in error_). End-of-file chunks only look at the end.
  std::optional<std::size_t> locate(const PatchChunk& chunk, const std::vector<std::string>& oldLines) {
    for (int pass = 0; pass < kPasses; ++pass) {
      const auto& file = normalized(pass);
      std::vector<std::string> wanted;
      wanted.reserve(oldLines.size());
      for (const auto& line : oldLines) wanted.push_back(normalize(line, pass));
      if (chunk.endOfFile) {
        if (file.size() < wanted.size() || file.size() - wanted.size() < cursor_) return std::nullopt;
        const std::size_t start = file.size() - wanted.size();
        if (matchesAt(file, wanted, start)) return start;
        continue;
      }
      const auto first = findFrom(file, wanted, cursor_, file.size());
      if (!first.has_value()) continue;
      if (const auto second = findFrom(file, wanted, *first + 1, file.size())) {
        error_ = ChunkError{chunkName(chunk) + " matches lines " + lineRange(*first, wanted.size()) + " and " +
                            lineRange(*second, wanted.size()) + " of " + std::string(path_) +
                            "; add an '@@ <line>' context or more context lines to say which"};
        return std::nullopt;
      }
      return first;
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
