#include "builtins/codemode/type_blanker.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using toold::codemode::blankTypes;

namespace {

// Lines of plain JavaScript whose characters look like type syntax: every one must come back
// byte-identical.
const std::vector<std::string> kPlainJavaScript = {
    R"(const a = x ? y : z;)",
    R"(const o = { a: 1, b: [2, 3], c: { d: "e" } };)",
    R"(label: for (const i of xs) { if (i) continue label; })",
    R"(const r = /a:b<c>/g.test(s) ? 1 : 2;)",
    R"(const t = `value: ${x ? "a" : "b"} done`;)",
    R"(if (a < b && c > d) { f(); })",
    R"(const ok = x !== y && !z;)",
    R"(const sw = (() => { switch (k) { case 1: return "a"; default: return "b"; } })();)",
    R"(const { a: renamed, b = 2 } = obj;)",
    R"(const fn = async ({ path, limit = 10 }) => await tools.read({ path, limit });)",
    R"(const nested = items.map((it) => ({ name: it.name, size: it.size ?? 0 }));)",
    R"(const cmp = a<b;)",
    R"(const as = 1, is = 2, type = 3;)",
    R"(const v = cond ? (x) : y;)",
    R"(const res = await Promise.all(files.map((f) => tools.read({ path: f }));)",
    R"(const q = a ? b : c ? d : e;)",
    R"(return { ok: !failed, count: n };)",
    R"(const s = "a: string" + 'b as c';)",
    R"(// const x: number = 1
const y = 2;)",
    R"(/* interface X {} */ const z = 3;)",
    R"(for (let i = 0; i < n; i++) { if (!seen[i]) out.push(i); })",
    R"(const keys = Object.keys(tools.github).filter((k) => k.startsWith("list"));)",
    R"(const pick = ({ a, b }) => a > b ? a : b;)",
    R"(if (a < b) { f(); } const y = x > (z);)",
    R"(const w = f(a < b, { c: 1 }, d >= e);)",
    R"(while (i < n && xs[i] > (lo)) i++;)",
};

} // namespace

TEST_CASE("type blanker: plain JavaScript comes back byte-identical", "[codemode]") {
  for (const auto& line : kPlainJavaScript) {
    INFO(line);
    const auto blanked = blankTypes(line);
    CHECK(blanked.text == line);
    CHECK(blanked.unsupported.empty());
  }
}

TEST_CASE("type blanker: annotations, assertions and declarations become spaces", "[codemode]") {
  struct Case {
    std::string typed;
    std::string plain;
  };
  const std::vector<Case> cases = {
      {"let count: number = 0;", "let count         = 0;"},
      {"const files: string[] = [];", "const files           = [];"},
      {"const first = items[0]!.name;", "const first = items[0] .name;"},
      {"const cfg = { mode: \"fast\" } as const;", "const cfg = { mode: \"fast\" }         ;"},
      {"const m = new Map<string, number>();", "const m = new Map                ();"},
      {"function pick<T>(arr: T[]): T { return arr[0]; }", "function pick   (arr     )    { return arr[0]; }"},
      {"const n = (x?: number) => x ?? 0;", "const n = (x         ) => x ?? 0;"},
      {"type Row = { a: string; b?: number };", "                                     "},
      {"import type { Foo } from \"./foo\";", "                                 "},
      {"const v = obj satisfies Record<string, unknown>;", "const v = obj                                  ;"},
      {"const out = rs.filter((r): r is string => typeof r === \"string\");",
       "const out = rs.filter((r)              => typeof r === \"string\");"},
  };
  for (const auto& c : cases) {
    INFO(c.typed);
    CHECK(blankTypes(c.typed).text == c.plain);
  }
}

TEST_CASE("type blanker: newlines are kept, so positions stay", "[codemode]") {
  const std::string typed = "interface Hit {\n  file: string;\n  line: number\n}\nconst h: Hit = x;";
  const auto blanked = blankTypes(typed);
  CHECK(blanked.text.size() == typed.size());
  // The interface is blank to its last brace, each line keeping its newline; the annotation too.
  std::string expected = typed;
  for (std::size_t i = 0; i < typed.find("const"); ++i)
    if (expected[i] != '\n') expected[i] = ' ';
  expected.replace(expected.find(": Hit"), 5, "     ");
  CHECK(blanked.text == expected);
}

TEST_CASE("type blanker: enum and namespace are reported, not guessed", "[codemode]") {
  auto blanked = blankTypes("enum Color { Red, Green }\nreturn Color.Red;");
  CHECK(blanked.unsupported == std::vector<std::string>{"enum"});
  CHECK(blanked.text == "enum Color { Red, Green }\nreturn Color.Red;");
  CHECK(blankTypes("namespace N { }").unsupported == std::vector<std::string>{"namespace"});
}

TEST_CASE("type blanker: unbalanced input does not run away", "[codemode]") {
  for (const std::string text : {"const x: (", "f<", "let a: {", "`${", "/[", "type X = ", "(a: "}) {
    INFO(text);
    CHECK(blankTypes(text).text.size() == text.size());
  }
}
