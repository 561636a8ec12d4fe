#include "builtins/codemode/js_tokens.h"

#include <algorithm>
#include <array>

namespace toold::codemode {

namespace {

bool identStart(char c) {
  const auto u = static_cast<unsigned char>(c);
  return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || c == '_' || c == '$' || u >= 0x80;
}
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool identChar(char c) { return identStart(c) || isDigit(c); }
bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

} // namespace

bool endsExpression(const JsToken& t) {
  static constexpr std::array<std::string_view, 14> kOperators = {
      "return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw",
      "case",   "do",     "else",       "await", "yield"};
  if (t.kind == JsTokenKind::Ident) return std::find(kOperators.begin(), kOperators.end(), t.text) == kOperators.end();
  if (t.kind != JsTokenKind::Punct) return true;
  return t.text == ")" || t.text == "]" || t.text == "}";
}

std::vector<JsToken> tokenizeJs(std::string_view s) {
  static constexpr std::array<std::string_view, 31> kPunctuators = {
      ">>>=", "...", "===", "!==", "**=", "<<=", ">>=", "&&=", "||=", "?\?=", "=>", "==", "!=", "<=", ">=", "&&",
      "||",   "??",  "?.",  "++",  "--",  "+=",  "-=",  "*=",  "/=",  "%=",   "&=", "|=", "^=", "**", "<<"};
  std::vector<JsToken> out;
  std::size_t i = 0;
  const std::size_t n = s.size();
  bool newline = true;
  while (i < n) {
    const char c = s[i];
    if (c == '\n') {
      newline = true;
      ++i;
      continue;
    }
    if (isSpace(c)) {
      ++i;
      continue;
    }
    if (c == '/' && i + 1 < n && s[i + 1] == '/') {
      while (i < n && s[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < n && s[i + 1] == '*') {
      const std::size_t close = s.find("*/", i + 2);
      const std::size_t stop = close == std::string_view::npos ? n : close;
      if (s.substr(i, stop - i).find('\n') != std::string_view::npos) newline = true;
      i = close == std::string_view::npos ? n : close + 2;
      continue;
    }
    const std::size_t begin = i;
    JsTokenKind kind = JsTokenKind::Punct;
    if (identStart(c)) {
      while (i < n && identChar(s[i])) ++i;
      kind = JsTokenKind::Ident;
    } else if (isDigit(c) || (c == '.' && i + 1 < n && isDigit(s[i + 1]))) {
      while (i < n && (identChar(s[i]) || s[i] == '.')) ++i;
      kind = JsTokenKind::Number;
    } else if (c == '"' || c == '\'') {
      ++i;
      while (i < n && s[i] != c && s[i] != '\n') i += s[i] == '\\' ? 2 : 1;
      ++i;
      kind = JsTokenKind::String;
    } else if (c == '`') {
      // A template literal; the bodies of ${…} are skipped, never rewritten.
      ++i;
      int depth = 0;
      while (i < n) {
        if (s[i] == '\\') {
          i += 2;
          continue;
        }
        if (depth == 0 && s[i] == '`') {
          ++i;
          break;
        }
        if (s[i] == '$' && i + 1 < n && s[i + 1] == '{') {
          ++depth;
          i += 2;
          continue;
        }
        if (depth > 0 && s[i] == '}') --depth;
        ++i;
      }
      kind = JsTokenKind::Template;
    } else if (c == '/' && (out.empty() || !endsExpression(out.back()))) {
      ++i;
      bool inClass = false;
      while (i < n && s[i] != '\n') {
        if (s[i] == '\\') {
          i += 2;
          continue;
        }
        if (s[i] == '[') inClass = true;
        else if (s[i] == ']') inClass = false;
        else if (s[i] == '/' && !inClass) break;
        ++i;
      }
      ++i;
      while (i < n && identChar(s[i])) ++i;
      kind = JsTokenKind::Regex;
    } else {
      std::size_t length = 1;
      for (auto p : kPunctuators)
        if (s.substr(i, p.size()) == p) {
          length = p.size();
          break;
        }
      i += length;
    }
    const std::size_t end = std::min(i, n);
    out.push_back({kind, begin, end, s.substr(begin, end - begin), newline});
    newline = false;
  }
  return out;
}

} // namespace toold::codemode
