#include "builtins/web/html_pieces.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace toold::builtins {

namespace {

bool startsWithTag(std::string_view html, std::size_t at, std::string_view name) {
  // "<name" followed by whitespace, '>' or '/', case-insensitively.
  if (at + 1 + name.size() >= html.size() || html[at] != '<') return false;
  for (std::size_t i = 0; i < name.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(html[at + 1 + i])) != name[i]) return false;
  const char next = html[at + 1 + name.size()];
  return next == '>' || next == '/' || std::isspace(static_cast<unsigned char>(next));
}

// Where the raw text that `<name` at `at` opens ends (after its end tag), or npos.
std::size_t endOfRaw(std::string_view html, std::size_t at, std::string_view name) {
  for (std::size_t i = html.find("</", at); i != std::string_view::npos; i = html.find("</", i + 2)) {
    bool same = i + 2 + name.size() <= html.size();
    for (std::size_t k = 0; same && k < name.size(); ++k)
      same = std::tolower(static_cast<unsigned char>(html[i + 2 + k])) == name[k];
    if (same) {
      const std::size_t close = html.find('>', i);
      return close == std::string_view::npos ? std::string_view::npos : close + 1;
    }
  }
  return std::string_view::npos;
}

constexpr std::array<std::string_view, 4> kRawElements{"script", "style", "pre", "textarea"};
constexpr std::array<std::string_view, 16> kBlocks{"p",  "div", "li",  "ul",  "ol",      "table",   "section", "article",
                                                    "h1", "h2",  "h3",  "h4",  "h5",      "h6",      "blockquote", "hr"};

} // namespace

std::vector<HtmlPiece> htmlPieces(std::string_view html, std::size_t pieceBytes) {
  std::vector<HtmlPiece> pieces;
  if (html.size() <= 2 * pieceBytes) {
    pieces.push_back({{}, html});
    return pieces;
  }
  std::string prefix;
  int tables = 0; // open at `at`, by start and end tags seen
  std::size_t start = 0;
  std::size_t at = 0;
  while (at < html.size()) {
    const std::size_t lt = html.find('<', at);
    if (lt == std::string_view::npos) break;
    at = lt;
    if (html.compare(at, 4, "<!--") == 0) { // a comment: skipped whole
      const std::size_t end = html.find("-->", at + 4);
      at = end == std::string_view::npos ? html.size() : end + 3;
      continue;
    }
    bool raw = false;
    for (std::string_view name : kRawElements)
      if (startsWithTag(html, at, name)) {
        const std::size_t end = endOfRaw(html, at, name);
        // A pre holds parsed tags: one left open (or over a piece long) would make the rest of
        // the page one piece again, so it is skipped only when it ends within a piece. The
        // others hold raw text, cheap to parse however long, and never cut.
        if (name == "pre" && (end == std::string_view::npos || end - at > pieceBytes)) break;
        at = end == std::string_view::npos ? html.size() : end;
        raw = true;
        break;
      }
    if (raw) continue;
    const bool cutHere = at - start >= pieceBytes && html.size() - at > pieceBytes / 2 &&
                         (tables > 0 ? startsWithTag(html, at, "tr")
                                     : std::any_of(kBlocks.begin(), kBlocks.end(),
                                                   [&](std::string_view name) { return startsWithTag(html, at, name); }));
    if (cutHere) {
      pieces.push_back({prefix, html.substr(start, at - start)});
      prefix.clear();
      for (int i = 0; i < tables; ++i) prefix += "<table>";
      start = at;
    }
    if (startsWithTag(html, at, "table")) ++tables;
    else if (html.compare(at, 7, "</table") == 0 || html.compare(at, 7, "</TABLE") == 0) tables = std::max(0, tables - 1);
    ++at;
  }
  pieces.push_back({prefix, html.substr(start)});
  return pieces;
}

} // namespace toold::builtins
