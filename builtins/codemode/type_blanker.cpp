#include "builtins/codemode/type_blanker.h"

#include "builtins/codemode/js_tokens.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace toold::codemode {

namespace {

using Kind = JsTokenKind;
using Token = JsToken;

constexpr std::size_t kNone = std::string::npos;

class Blanker {
public:
  explicit Blanker(const std::string& source) : text_(source), tokens_(tokenizeJs(source)) {
    // The partner of every (, [ and { up front, so that matching stays linear.
    partner_.assign(tokens_.size(), kNone);
    std::vector<std::size_t> open;
    for (std::size_t j = 0; j < tokens_.size(); ++j) {
      const auto x = tokens_[j].text;
      if (x == "(" || x == "[" || x == "{") {
        open.push_back(j);
      } else if ((x == ")" || x == "]" || x == "}") && !open.empty()) {
        partner_[open.back()] = j + 1;
        open.pop_back();
      }
    }
  }

  BlankedProgram run() {
    for (std::size_t i = 0; i < tokens_.size(); ++i) visit(i);
    return {std::move(text_), std::move(unsupported_)};
  }

private:
  bool is(std::size_t i, std::string_view x) const { return i < tokens_.size() && tokens_[i].text == x; }
  bool isIdent(std::size_t i) const { return i < tokens_.size() && tokens_[i].kind == Kind::Ident; }
  bool isIdent(std::size_t i, std::string_view x) const { return isIdent(i) && tokens_[i].text == x; }

  // Overwrites tokens [from, to) and what lies between them, newlines kept.
  void blank(std::size_t from, std::size_t to) {
    if (from >= to || from >= tokens_.size()) return;
    const std::size_t b = tokens_[from].begin;
    const std::size_t e = tokens_[std::min(to, tokens_.size()) - 1].end;
    for (std::size_t k = b; k < e; ++k)
      if (text_[k] != '\n') text_[k] = ' ';
  }

  // The index after the bracket that closes the one at `i`, or kNone. `<` is matched by scanning
  // (it may be a comparison): a `;`, `&&` or `||` before the `>` means it was one. Brackets inside
  // are skipped whole, so `Record<string, { a: string; b: number }>` is one generic.
  std::size_t match(std::size_t i) const {
    if (tokens_[i].text != "<") return partner_[i];
    int depth = 0;
    for (std::size_t j = i; j < tokens_.size(); ++j) {
      const auto x = tokens_[j].text;
      if ((x == "(" || x == "[" || x == "{") && partner_[j] != kNone) {
        j = partner_[j] - 1;
      } else if (x == ")" || x == "]" || x == "}") {
        return kNone; // leaving the group the `<` is in: it was a comparison
      } else if (x == "<") {
        ++depth;
      } else if (x == ">") {
        if (--depth == 0) return j + 1;
      } else if (x == ";" || x == "&&" || x == "||") {
        return kNone;
      }
    }
    return kNone;
  }

  // One type expression starting at `i`; the index after it (`i` when there is none).
  std::size_t type(std::size_t i) const {
    std::size_t j = i;
    if (is(j, "|") || is(j, "&")) ++j;
    for (;;) {
      while (isIdent(j, "keyof") || isIdent(j, "typeof") || isIdent(j, "readonly") || isIdent(j, "unique")) ++j;
      if (j >= tokens_.size()) return j;
      if (is(j, "(") || is(j, "{") || is(j, "[")) {
        const std::size_t m = match(j);
        if (m == kNone) return j;
        j = m;
        if (is(j, "=>")) j = type(j + 1);
      } else if (is(j, "<")) {
        const std::size_t m = match(j);
        if (m == kNone) return j;
        j = m;
      } else if (is(j, "new") && is(j + 1, "(")) {
        j = match(j + 1);
        if (j == kNone) return i;
        if (is(j, "=>")) j = type(j + 1);
      } else if (tokens_[j].kind == Kind::String || tokens_[j].kind == Kind::Number ||
                 tokens_[j].kind == Kind::Template) {
        ++j;
      } else if (is(j, "-") && j + 1 < tokens_.size() && tokens_[j + 1].kind == Kind::Number) {
        j += 2;
      } else if (isIdent(j)) {
        ++j;
        while (is(j, ".") && isIdent(j + 1)) j += 2;
        if (is(j, "<")) {
          const std::size_t m = match(j);
          if (m != kNone) j = m;
        }
        if (isIdent(j, "is")) return type(j + 1);
      } else {
        return j;
      }
      while (is(j, "[")) { // T[] and T[K]
        const std::size_t m = match(j);
        if (m == kNone) break;
        j = m;
      }
      if (is(j, "|") || is(j, "&")) {
        ++j;
        continue;
      }
      return j;
    }
  }

  // A parameter list (a, b: T = 1, {x}: P, ...r: R[]) between tokens `open` and `close`.
  void params(std::size_t open, std::size_t close) {
    std::size_t j = open + 1;
    while (j < close) {
      const std::size_t start = j;
      if (is(j, "...")) ++j;
      if ((isIdent(j, "public") || isIdent(j, "private") || isIdent(j, "protected") || isIdent(j, "readonly")) &&
          isIdent(j + 1)) {
        blank(j, j + 1);
        ++j;
      }
      if (is(j, "{") || is(j, "[")) {
        const std::size_t m = match(j);
        if (m == kNone) return;
        j = m;
      } else if (isIdent(j)) {
        ++j;
      }
      if (is(j, "?") && (is(j + 1, ":") || is(j + 1, ",") || is(j + 1, ")"))) {
        blank(j, j + 1);
        ++j;
      }
      if (is(j, ":")) {
        const std::size_t e = type(j + 1);
        blank(j, e);
        j = e;
      }
      // The default value, up to the next comma at this depth.
      int depth = 0;
      while (j < close) {
        const auto x = tokens_[j].text;
        if (x == "(" || x == "[" || x == "{") {
          ++depth;
        } else if (x == ")" || x == "]" || x == "}") {
          --depth;
        } else if (x == "," && depth == 0) {
          ++j;
          break;
        }
        ++j;
      }
      if (j == start) ++j;
    }
  }

  // Whether the `(` at `i` opens a parameter list: after `function [name]`, or followed (after
  // its `)` and an optional return type) by `=>`.
  bool parameterListAt(std::size_t i, std::size_t& close) const {
    const std::size_t m = match(i);
    if (m == kNone) return false;
    close = m - 1;
    if (i > 0 && is(i - 1, "function")) return true;
    if (i > 1 && isIdent(i - 1) && is(i - 2, "function")) return true;
    if (is(m, "=>")) return true;
    if (is(m, ":")) {
      const std::size_t e = type(m + 1);
      if (is(e, "=>") || is(e, "{")) return true;
    }
    return false;
  }

  // The index of the end of the statement starting at `i`: its `;` (included) or the next line.
  std::size_t statementEnd(std::size_t i) const {
    std::size_t j = i;
    while (j < tokens_.size() && !is(j, ";") && !(j > i && tokens_[j].newlineBefore)) ++j;
    return j + (is(j, ";") ? 1 : 0);
  }

  void visitStatementStart(std::size_t i) {
    const auto word = tokens_[i].text;
    if (word == "interface" && isIdent(i + 1)) {
      std::size_t j = i + 2;
      while (j < tokens_.size() && !is(j, "{")) ++j;
      const std::size_t m = j < tokens_.size() ? match(j) : kNone;
      if (m != kNone) blank(i, m);
    } else if (word == "type" && isIdent(i + 1) && (is(i + 2, "=") || is(i + 2, "<"))) {
      std::size_t j = i + 2;
      if (is(j, "<")) j = match(j);
      if (j != kNone && is(j, "=")) {
        std::size_t e = type(j + 1);
        if (is(e, ";")) ++e;
        blank(i, e);
      }
    } else if ((word == "import" && isIdent(i + 1, "type")) || (word == "declare" && isIdent(i + 1))) {
      blank(i, statementEnd(i));
    } else if ((word == "enum" || word == "namespace") && isIdent(i + 1)) {
      unsupported_.emplace_back(word);
    }
  }

  void visit(std::size_t i) {
    const Token& token = tokens_[i];
    const bool statementStart = i == 0 || token.newlineBefore || is(i - 1, ";") || is(i - 1, "{") || is(i - 1, "}");
    if (token.kind == Kind::Ident && statementStart) {
      // None of the other rules applies to these words themselves.
      const auto word = token.text;
      if (word == "interface" || word == "type" || word == "import" || word == "declare" || word == "enum" ||
          word == "namespace")
        return visitStatementStart(i);
    }
    if (token.kind == Kind::Ident && (token.text == "let" || token.text == "const" || token.text == "var")) {
      std::size_t j = i + 1;
      if (is(j, "{") || is(j, "[")) {
        j = match(j);
        if (j == kNone) return;
      } else if (isIdent(j)) {
        ++j;
      } else {
        return;
      }
      if (is(j, ":")) blank(j, type(j + 1));
      return;
    }
    if (token.text == "function") { // function name<T>(
      std::size_t j = i + 1;
      if (isIdent(j)) ++j;
      if (is(j, "<")) {
        const std::size_t m = match(j);
        if (m != kNone && is(m, "(")) blank(j, m);
      }
      return;
    }
    if (token.text == "(") {
      std::size_t close = 0;
      if (parameterListAt(i, close)) {
        params(i, close);
        if (is(close + 1, ":")) blank(close + 1, type(close + 2));
      }
      return;
    }
    if (token.kind == Kind::Ident && (token.text == "as" || token.text == "satisfies") && i > 0 &&
        endsExpression(tokens_[i - 1]) && !token.newlineBefore) {
      const std::size_t e = type(i + 1);
      if (e > i + 1) blank(i, e);
      return;
    }
    if (token.text == "!" && i > 0 && endsExpression(tokens_[i - 1]) && !token.newlineBefore) {
      blank(i, i + 1);
      return;
    }
    if (token.text == "<" && i > 0 && (isIdent(i - 1) || is(i - 1, ")") || is(i - 1, "]"))) {
      // Generic arguments: f<T>(…), new Map<K, V>(). Only type-like tokens may sit inside.
      const std::size_t m = match(i);
      if (m == kNone || !is(m, "(")) return;
      static constexpr std::array<std::string_view, 16> kTypePunctuators = {
          ",", "[", "]", "{", "}", ":", ";", "|", "&", "?", "<", ">", ".", "=>", "(", ")"};
      for (std::size_t j = i + 1; j + 1 < m; ++j)
        if (tokens_[j].kind == Kind::Punct &&
            std::find(kTypePunctuators.begin(), kTypePunctuators.end(), tokens_[j].text) == kTypePunctuators.end())
          return;
      blank(i, m);
    }
  }

  std::string text_;
  std::vector<Token> tokens_;
  std::vector<std::size_t> partner_;
  std::vector<std::string> unsupported_;
};

} // namespace

BlankedProgram blankTypes(const std::string& source) { return Blanker(source).run(); }

} // namespace toold::codemode
