#include "builtins/edit/fragment_match.h"

#include "builtins/edit/line_text.h"

#include <algorithm>

namespace toold::builtins::edit {

namespace {

bool isWordByte(char c) {
  const auto u = static_cast<unsigned char>(c);
  return (u >= '0' && u <= '9') || (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || u == '_' || u >= 0x80;
}

bool isWhitespace(char c) { return isSpaceChar(c); }

// `text` with its whitespace compared loosely (see fragmentMatches): a run between two word bytes
// becomes one space, any other run is dropped. `origin[k]` is the offset in `text` of byte k.
struct Squeezed {
  std::string text;
  std::vector<std::size_t> origin;
};

Squeezed squeeze(std::string_view text) {
  Squeezed out;
  out.text.reserve(text.size());
  out.origin.reserve(text.size());
  bool pending = false;
  std::size_t pendingAt = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      // Line breaks and the indentation after them are compared as they are: the tolerance is
      // for whitespace inside lines, never for how the lines nest.
      pending = false;
      out.text.push_back(c);
      out.origin.push_back(i);
      while (i + 1 < text.size() && (text[i + 1] == ' ' || text[i + 1] == '\t')) {
        out.text.push_back(text[++i]);
        out.origin.push_back(i);
      }
      continue;
    }
    if (isWhitespace(c)) {
      if (!pending) pendingAt = i;
      pending = true;
      continue;
    }
    if (pending && !out.text.empty() && isWordByte(out.text.back()) && isWordByte(c)) {
      out.text.push_back(' ');
      out.origin.push_back(pendingAt);
    }
    pending = false;
    out.text.push_back(c);
    out.origin.push_back(i);
  }
  return out;
}

} // namespace

std::vector<Match> fragmentMatches(const FileIndex& file, std::string_view find) {
  std::vector<Match> out;
  const Squeezed pattern = squeeze(find);
  if (pattern.text.empty() || std::none_of(pattern.text.begin(), pattern.text.end(), isWordByte)) return out;
  const Squeezed text = squeeze(file.text());
  std::size_t from = 0;
  while (from < text.text.size()) {
    const std::size_t at = text.text.find(pattern.text, from);
    if (at == std::string::npos) break;
    // A match must not cut a word of the file in two where the find does not: `ab` is no match in `cab`.
    const std::size_t last = at + pattern.text.size() - 1;
    const bool cutsBefore = at > 0 && isWordByte(text.text[at - 1]) && isWordByte(text.text[at]) &&
                            text.origin[at - 1] + 1 == text.origin[at];
    const bool cutsAfter = last + 1 < text.text.size() && isWordByte(text.text[last]) && isWordByte(text.text[last + 1]) &&
                           text.origin[last] + 1 == text.origin[last + 1];
    if (!cutsBefore && !cutsAfter) {
      Match match;
      const std::size_t begin = text.origin[at];
      const std::size_t end = text.origin[last] + 1;
      match.span = {begin, end, file.lineNumberAt(begin), file.lineNumberAt(end - 1)};
      out.push_back(std::move(match));
      if (out.size() > kMaxEditMatches) break;
    }
    from = at + 1;
  }
  return out;
}

} // namespace toold::builtins::edit
