// The implicit return's shortcut: a program that certainly ends with a `return` statement skips
// the parser; every doubt goes to the parser (the engine tests check what it then does).
#include "builtins/codemode/implicit_return.h"

#include <catch2/catch.hpp>

#include <string>

using toold::codemode::endsWithReturnStatement;

TEST_CASE("implicit return: programs that end with a return statement skip the parser", "[codemode]") {
  for (const std::string program : {
           "return 1",
           "return 1;",
           "return;",
           "const a = await tools.x.y({});\nreturn a.total;",
           "return {\n  sum,\n  doubled: [1, 2].map((x) => x * 2),\n};",
           "return (\n  a\n);",
           "let n = 0;\nfor (const x of xs) {\n  n += x;\n}\nreturn n; // done\n",
           "if (failed) return 1; else return 2",
           "return `total: ${n}`;",
           "const o = {return: 1};\nreturn o.return;",
       }) {
    INFO(program);
    CHECK(endsWithReturnStatement(program));
  }
}

TEST_CASE("implicit return: anything else is left to the parser", "[codemode]") {
  for (const std::string program : {
           "",
           "1 + 1",
           "const a = 1;\na",
           // A line break after `return` ends it; the last statement is then the expression.
           "if (false) return 1\nfoo()",
           "return\n1",
           "return 1; foo()",
           "do return 1; while (false)",
           // A line break inside the returned expression could be either: the parser decides.
           "return a +\n  b",
           // `return` in a function, or as a property name, is not the program's.
           "const f = () => { return 1 };\nf()",
           "o.return",
           "o?.return",
           // Line terminators the tokenizer does not count as line breaks.
           "if (false) return 1\rfoo()",
           "if (false) return 1\xE2\x80\xA8" "foo()",
           // Unbalanced brackets.
           "return 1 }",
           "return (1",
       }) {
    INFO(program);
    CHECK_FALSE(endsWithReturnStatement(program));
  }
}
