#include "builtins/codemode/implicit_return.h"

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

} // namespace toold::codemode
