#include "builtins/patch/patch_parser.h"

#include <cctype>
#include <cstddef>
#include <utility>

namespace toold::builtins {

namespace {

constexpr std::string_view kMissingMarker = "Invalid patch: missing '*** Begin Patch' or '*** End Patch' marker";
constexpr std::string_view kExpectedHeaders =
    "expected '*** Add File: <path>', '*** Delete File: <path>' or '*** Update File: <path>'";

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && isSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && isSpace(s.back())) s.remove_suffix(1);
  return s;
}

std::string_view trimLeft(std::string_view s) {
  while (!s.empty() && isSpace(s.front())) s.remove_prefix(1);
  return s;
}

bool isBlank(std::string_view s) { return trim(s).empty(); }

bool startsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

bool equalsIgnoringCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

/// The original text's lines: split on "\n", a final "\r" dropped from each.
std::vector<std::string_view> splitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find('\n', start);
    std::string_view line = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return lines;
}

bool isBeginMarker(std::string_view line) {
  const std::string_view t = trim(line);
  return t == "*** Begin Patch" || t == "*** Begin Patch ***";
}

bool isEndMarker(std::string_view line) {
  const std::string_view t = trim(line);
  return t == "*** End Patch" || t == "*** End Patch ***";
}

bool isEndOfFileMarker(std::string_view line) { return trim(line) == "*** End of File"; }

/// `*** <Word> <Word>: <path>` with any spacing, the words compared without case: the path
/// (trimmed, possibly empty) when the line is that header.
std::optional<std::string_view> matchHeader(std::string_view line, std::string_view first, std::string_view second) {
  std::string_view s = trim(line);
  if (!startsWith(s, "***")) return std::nullopt;
  s = trimLeft(s.substr(3));
  if (s.size() < first.size() || !equalsIgnoringCase(s.substr(0, first.size()), first)) return std::nullopt;
  s = s.substr(first.size());
  if (s.empty() || !isSpace(s.front())) return std::nullopt;
  s = trimLeft(s);
  if (s.size() < second.size() || !equalsIgnoringCase(s.substr(0, second.size()), second)) return std::nullopt;
  s = trimLeft(s.substr(second.size()));
  if (s.empty() || s.front() != ':') return std::nullopt;
  return trim(s.substr(1));
}

/// The word a heredoc opener introduces: `[apply_patch |cat ]<<[-]['|"]WORD['|"]`.
std::optional<std::string_view> heredocWord(std::string_view line) {
  std::string_view s = trim(line);
  if (startsWith(s, "apply_patch")) {
    s = trimLeft(s.substr(11));
  } else if (startsWith(s, "cat") && s.size() > 3 && isSpace(s[3])) {
    s = trimLeft(s.substr(3));
  }
  if (!startsWith(s, "<<")) return std::nullopt;
  s.remove_prefix(2);
  if (startsWith(s, "-")) s.remove_prefix(1);
  s = trimLeft(s);
  char quote = 0;
  if (!s.empty() && (s.front() == '\'' || s.front() == '"')) {
    quote = s.front();
    s.remove_prefix(1);
  }
  std::size_t n = 0;
  while (n < s.size() && (std::isalnum(static_cast<unsigned char>(s[n])) != 0 || s[n] == '_' || s[n] == '-')) ++n;
  if (n == 0) return std::nullopt;
  const std::string_view word = s.substr(0, n);
  s.remove_prefix(n);
  if (quote != 0) {
    if (s.empty() || s.front() != quote) return std::nullopt;
    s.remove_prefix(1);
  }
  if (!s.empty()) return std::nullopt;
  return word;
}

/// Quotes a line for a message, shortened when long.
std::string quoted(std::string_view line) {
  constexpr std::size_t kMax = 120;
  std::string out = "'";
  if (line.size() > kMax) {
    out.append(line.substr(0, kMax));
    out += "...";
  } else {
    out.append(line);
  }
  out += "'";
  return out;
}

/// The `@@` text as a context: trimmed; a unified-diff range (`@@ -12,7 +12,8 @@ def f():`) is
/// dropped, keeping only the section text after it.
std::string contextText(std::string_view afterAt) {
  std::string_view t = trim(afterAt);
  if (t.size() >= 2 && t[0] == '-' && std::isdigit(static_cast<unsigned char>(t[1])) != 0) {
    const std::size_t close = t.find("@@");
    if (close != std::string_view::npos) t = trim(t.substr(close + 2));
  }
  if (t == "@@") t = {};
  return std::string(t);
}

class Parser {
public:
  Parser(std::vector<std::string_view> lines, std::size_t begin, std::size_t end)
      : lines_(std::move(lines)), index_(begin), end_(end) {}

  std::variant<ParsedPatch, PatchParseError> run() {
    while (index_ < end_) {
      const std::string_view line = lines_[index_];
      if (isBlank(line)) {
        ++index_;
        continue;
      }
      std::optional<PatchParseError> error;
      if (auto path = matchHeader(line, "Add", "File")) {
        error = parseAdd(*path);
      } else if (auto deletePath = matchHeader(line, "Delete", "File")) {
        error = parseDelete(*deletePath);
      } else if (auto updatePath = matchHeader(line, "Update", "File")) {
        error = parseUpdate(*updatePath);
      } else if (startsWith(trim(line), "***")) {
        return fail("unknown header " + quoted(trim(line)) + "; " + std::string(kExpectedHeaders));
      } else {
        return fail("expected a file header, found " + quoted(line));
      }
      if (error) return *error;
    }
    return std::move(patch_);
  }

private:
  int lineNumber() const { return static_cast<int>(index_) + 1; }

  PatchParseError fail(const std::string& what) const {
    return PatchParseError{"line " + std::to_string(lineNumber()) + ": " + what, lineNumber()};
  }

  std::optional<PatchParseError> needPath(std::string_view path, std::string_view header) const {
    if (!path.empty()) return std::nullopt;
    return fail(std::string("'*** ") + std::string(header) + ":' needs a path");
  }

  std::optional<PatchParseError> parseAdd(std::string_view path) {
    if (auto error = needPath(path, "Add File")) return error;
    PatchFileOp op{PatchFileOp::Kind::Add, std::string(path), std::nullopt, {}, {}, lineNumber()};
    ++index_;
    std::size_t pendingEmpty = 0; // empty lines seen: content only if a '+' line follows
    for (; index_ < end_; ++index_) {
      const std::string_view line = lines_[index_];
      if (isBlank(line)) {
        ++pendingEmpty;
        continue;
      }
      if (startsWith(trim(line), "***")) break;
      if (line.front() != '+') {
        return fail("every line of Add File " + op.path + " must start with '+', found " + quoted(line));
      }
      op.contents.append(pendingEmpty, '\n');
      pendingEmpty = 0;
      op.contents.append(line.substr(1));
      op.contents.push_back('\n');
    }
    patch_.operations.push_back(std::move(op));
    return std::nullopt;
  }

  std::optional<PatchParseError> parseDelete(std::string_view path) {
    if (auto error = needPath(path, "Delete File")) return error;
    patch_.operations.push_back(
        PatchFileOp{PatchFileOp::Kind::Delete, std::string(path), std::nullopt, {}, {}, lineNumber()});
    for (++index_; index_ < end_ && isBlank(lines_[index_]); ++index_) {
    }
    if (index_ < end_ && !startsWith(trim(lines_[index_]), "***")) {
      return fail("Delete File " + std::string(path) + " takes no lines, found " + quoted(lines_[index_]));
    }
    return std::nullopt;
  }

  std::optional<PatchParseError> parseUpdate(std::string_view path) {
    if (auto error = needPath(path, "Update File")) return error;
    PatchFileOp op{PatchFileOp::Kind::Update, std::string(path), std::nullopt, {}, {}, lineNumber()};
    const std::size_t headerIndex = index_;
    ++index_;
    // `*** Move to:` directly after the header (blank lines between are tolerated).
    std::size_t next = index_;
    while (next < end_ && isBlank(lines_[next])) ++next;
    if (next < end_) {
      if (auto movePath = matchHeader(lines_[next], "Move", "to")) {
        index_ = next;
        if (auto error = needPath(*movePath, "Move to")) return error;
        op.movePath = std::string(*movePath);
        ++index_;
      }
    }

    PatchChunk chunk;
    bool inChunk = false;       // a chunk has started (`@@` seen or a chunk line read)
    std::size_t pendingEmpty = 0; // empty lines: context only if a chunk line follows
    auto closeChunk = [&] {
      pendingEmpty = 0;
      if (!chunk.oldLines.empty() || !chunk.newLines.empty()) op.chunks.push_back(std::move(chunk));
      chunk = PatchChunk{};
      inChunk = false;
    };
    for (; index_ < end_; ++index_) {
      const std::string_view line = lines_[index_];
      if (line.empty() || (isBlank(line) && line.front() != ' ')) {
        if (!inChunk) chunk.line = lineNumber();
        inChunk = true;
        ++pendingEmpty;
        continue;
      }
      const char marker = line.front();
      if (marker == ' ' || marker == '-' || marker == '+') {
        if (!inChunk) chunk.line = lineNumber();
        inChunk = true;
        for (; pendingEmpty > 0; --pendingEmpty) {
          chunk.oldLines.emplace_back();
          chunk.newLines.emplace_back();
          chunk.contextOf.push_back(static_cast<int>(chunk.oldLines.size()) - 1);
        }
        const std::string text(line.substr(1));
        if (marker != '+') chunk.oldLines.push_back(text);
        if (marker != '-') {
          chunk.newLines.push_back(text);
          chunk.contextOf.push_back(marker == ' ' ? static_cast<int>(chunk.oldLines.size()) - 1 : -1);
        }
        continue;
      }
      if (startsWith(line, "@@")) {
        const bool hasLines = !chunk.oldLines.empty() || !chunk.newLines.empty();
        if (hasLines) closeChunk();
        pendingEmpty = 0; // empty lines just before `@@` are not context
        if (chunk.contexts.empty()) chunk.line = lineNumber(); // the chunk's first `@@`
        inChunk = true;
        std::string context = contextText(line.substr(2));
        if (!context.empty()) chunk.contexts.push_back(std::move(context));
        continue;
      }
      if (isEndOfFileMarker(line)) {
        chunk.endOfFile = true;
        closeChunk();
        continue;
      }
      if (startsWith(trim(line), "***")) break; // the next header (or an unknown one, reported there)
      return fail("unexpected line in the chunk of " + op.path + ": " + quoted(line) +
                  " (chunk lines start with ' ', '-' or '+')");
    }
    closeChunk();
    if (op.chunks.empty()) {
      return PatchParseError{"line " + std::to_string(headerIndex + 1) + ": Update File " + op.path + " has no changes",
                             static_cast<int>(headerIndex) + 1};
    }
    patch_.operations.push_back(std::move(op));
    return std::nullopt;
  }

  std::vector<std::string_view> lines_;
  std::size_t index_;
  std::size_t end_;
  ParsedPatch patch_;
};

} // namespace

std::variant<ParsedPatch, PatchParseError> parsePatch(std::string_view text) {
  std::vector<std::string_view> lines = splitLines(text);

  // The non-blank extent of the text (trimming the whole text), then a heredoc wrapper within it.
  std::size_t first = 0;
  std::size_t last = lines.size();
  while (first < last && isBlank(lines[first])) ++first;
  while (last > first && isBlank(lines[last - 1])) --last;
  if (last - first >= 2) {
    if (auto word = heredocWord(lines[first]); word && trim(lines[last - 1]) == *word) {
      ++first;
      --last;
    }
  }

  std::optional<std::size_t> begin;
  std::optional<std::size_t> end;
  for (std::size_t i = first; i < last; ++i) {
    if (!begin && isBeginMarker(lines[i])) begin = i;
    if (isEndMarker(lines[i])) end = i;
  }
  if (!begin || !end) return PatchParseError{std::string(kMissingMarker), 0};
  if (*end < *begin) {
    return PatchParseError{"line " + std::to_string(*end + 1) + ": " + std::string(kMissingMarker) +
                               " ('*** End Patch' comes before '*** Begin Patch')",
                           static_cast<int>(*end) + 1};
  }
  for (std::size_t i = first; i < *begin; ++i) {
    if (!isBlank(lines[i])) {
      return PatchParseError{"line " + std::to_string(i + 1) + ": unexpected text before '*** Begin Patch': " +
                                 quoted(lines[i]),
                             static_cast<int>(i) + 1};
    }
  }
  for (std::size_t i = *end + 1; i < last; ++i) {
    if (!isBlank(lines[i])) {
      return PatchParseError{"line " + std::to_string(i + 1) + ": unexpected text after '*** End Patch': " +
                                 quoted(lines[i]),
                             static_cast<int>(i) + 1};
    }
  }
  bool empty = true;
  for (std::size_t i = *begin + 1; i < *end && empty; ++i) empty = isBlank(lines[i]);
  if (empty) return PatchParseError{"empty patch", 0};

  return Parser(std::move(lines), *begin + 1, *end).run();
}

} // namespace toold::builtins
