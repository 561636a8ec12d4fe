#include "builtins/edit/line_text.h"

#include "builtins/text/punctuation.h"

namespace toold::builtins::edit {

SplitLines splitLines(std::string_view text) {
  SplitLines out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t newline = text.find('\n', pos);
    if (newline == std::string_view::npos) {
      out.lines.push_back(text.substr(pos));
      return out;
    }
    out.lines.push_back(text.substr(pos, newline - pos));
    pos = newline + 1;
  }
  out.endsWithNewline = !text.empty();
  return out;
}

bool isSpaceChar(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

std::string_view trimRight(std::string_view text) {
  std::size_t end = text.size();
  while (end > 0 && isSpaceChar(text[end - 1])) --end;
  return text.substr(0, end);
}

std::string_view trimBoth(std::string_view text) {
  text = trimRight(text);
  std::size_t begin = 0;
  while (begin < text.size() && isSpaceChar(text[begin])) ++begin;
  return text.substr(begin);
}

std::string_view leadingIndent(std::string_view line) {
  std::size_t end = 0;
  while (end < line.size() && (line[end] == ' ' || line[end] == '\t')) ++end;
  return line.substr(0, end);
}

bool isBlank(std::string_view line) { return trimRight(line).empty(); }

namespace {

// `trimmed` (no whitespace at either end) with every inner whitespace run as one space.
std::string collapseSpaces(std::string_view trimmed) {
  std::string out;
  out.reserve(trimmed.size());
  bool inRun = false;
  for (const char c : trimmed) {
    if (isSpaceChar(c)) {
      if (!inRun) out.push_back(' ');
      inRun = true;
    } else {
      out.push_back(c);
      inRun = false;
    }
  }
  return out;
}

} // namespace

std::string lineKey(std::string_view line, LineLevel level) {
  switch (level) {
  case LineLevel::TrailingSpace: return std::string(trimRight(line));
  case LineLevel::Trimmed: return std::string(trimBoth(line));
  case LineLevel::InnerSpace: return collapseSpaces(trimBoth(line));
  case LineLevel::Punctuation: return collapseSpaces(trimBoth(foldPunctuation(line)));
  case LineLevel::Letters: {
    std::string key = collapseSpaces(trimBoth(foldPunctuation(line)));
    for (char& c : key)
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return key;
  }
  }
  return std::string(line);
}

std::optional<std::string> unescape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool changed = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size()) {
      char decoded = '\0';
      switch (text[i + 1]) {
      case 'n': decoded = '\n'; break;
      case 't': decoded = '\t'; break;
      case 'r': decoded = '\r'; break;
      case '"':
      case '\'':
      case '`':
      case '\\':
      case '$': decoded = text[i + 1]; break;
      default: break;
      }
      if (decoded != '\0') {
        // The text is LF: an escaped CRLF stands for one line break.
        if (decoded == '\n' && !out.empty() && out.back() == '\r') out.pop_back();
        out.push_back(decoded);
        changed = true;
        ++i;
        continue;
      }
    }
    out.push_back(text[i]);
  }
  if (!changed) return std::nullopt;
  return out;
}

} // namespace toold::builtins::edit
