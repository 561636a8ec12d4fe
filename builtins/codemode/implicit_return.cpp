#include "builtins/codemode/implicit_return.h"

#include "builtins/codemode/js_tokens.h"

#include <cstddef>
#include <vector>

namespace toold::codemode {

// Parsed as the engine compiles it, inside the same wrapper, so that what parses here compiles
// there. Reflect.parse's lines count from 1 and its columns from 0, in the string's UTF-16 code
// units; the wrapper's first line is not the program's.
const char* const kImplicitReturn = R"JS((function (text) {
  "use strict";
  let tree;
  try {
    tree = Reflect.parse("(async () => {\n" + text + "\n})", { loc: true });
  } catch (e) {
    return null;
  }
  const statements = tree.body[0].expression.body.body;
  const last = statements[statements.length - 1];
  if (!last || last.type !== "ExpressionStatement") return null;
  const lineBreak = /\r\n|[\n\r\u2028\u2029]/g;
  let offset = 0;
  for (let line = 2; line < last.loc.start.line; ++line) {
    const found = lineBreak.exec(text);
    if (!found) return null;
    offset = found.index + found[0].length;
  }
  offset += last.loc.start.column;
  // A parenthesised expression starts inside its parentheses: the return goes before the first.
  for (let at = offset - 1; at >= 0; --at) {
    const c = text[at];
    if (c === "(") offset = at;
    else if (c !== " " && c !== "\t" && c !== "\n" && c !== "\r") break;
  }
  return text.slice(0, offset) + "return " + text.slice(offset);
}))JS";

bool endsWithReturnStatement(std::string_view program) {
  // Line terminators the tokenizer does not count as line breaks: a carriage return alone, and
  // U+2028/U+2029 (E2 80 A8/A9).
  if (program.find('\r') != std::string_view::npos || program.find("\xE2\x80\xA8") != std::string_view::npos ||
      program.find("\xE2\x80\xA9") != std::string_view::npos)
    return false;
  const std::vector<JsToken> tokens = tokenizeJs(program);
  // The bracket depth each token is at (a closing bracket counts as inside).
  std::vector<int> depths(tokens.size());
  int depth = 0;
  std::size_t lastReturn = tokens.size();
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const JsToken& token = tokens[i];
    if (token.kind == JsTokenKind::Punct && (token.text == "(" || token.text == "[" || token.text == "{")) {
      depths[i] = depth++;
      continue;
    }
    if (token.kind == JsTokenKind::Punct && (token.text == ")" || token.text == "]" || token.text == "}")) {
      depths[i] = depth--;
      if (depth < 0) return false;
      continue;
    }
    depths[i] = depth;
    // `x.return` names a property; a `return` elsewhere outside brackets is the program's.
    const bool property = i > 0 && (tokens[i - 1].text == "." || tokens[i - 1].text == "?.");
    if (depth == 0 && token.kind == JsTokenKind::Ident && token.text == "return" && !property) lastReturn = i;
  }
  if (depth != 0 || lastReturn == tokens.size()) return false;
  for (std::size_t i = lastReturn + 1; i < tokens.size(); ++i) {
    if (depths[i] != 0) continue;
    if (tokens[i].newlineBefore) return false;
    if (tokens[i].text == ";" && i + 1 != tokens.size()) return false;
  }
  return true;
}

} // namespace toold::codemode
