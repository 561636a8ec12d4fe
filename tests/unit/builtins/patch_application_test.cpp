#include "builtins/patch/patch_application.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using toold::builtins::applyChunks;
using toold::builtins::ChunkError;
using toold::builtins::PatchChunk;
using Lines = std::vector<std::string>;

namespace {

PatchChunk chunk(Lines oldLines, Lines newLines, Lines contexts = {}, bool endOfFile = false, int line = 3) {
  PatchChunk c;
  c.contexts = std::move(contexts);
  c.oldLines = std::move(oldLines);
  c.newLines = std::move(newLines);
  c.endOfFile = endOfFile;
  c.line = line;
  return c;
}

Lines applyOk(const Lines& lines, const std::vector<PatchChunk>& chunks) {
  auto result = applyChunks(lines, chunks, "f.txt");
  if (const auto* error = std::get_if<ChunkError>(&result)) FAIL("unexpected error: " << error->message);
  return std::get<Lines>(result);
}

std::string applyError(const Lines& lines, const std::vector<PatchChunk>& chunks) {
  auto result = applyChunks(lines, chunks, "f.txt");
  REQUIRE(std::holds_alternative<ChunkError>(result));
  return std::get<ChunkError>(result).message;
}

} // namespace

TEST_CASE("patch application: an exact match is replaced", "[patch]") {
  CHECK(applyOk({"a", "b", "c"}, {chunk({"a", "b"}, {"a", "B"})}) == Lines{"a", "B", "c"});
  CHECK(applyOk({"a", "b", "c"}, {chunk({"b"}, {})}) == Lines{"a", "c"});
  CHECK(applyOk({"a", "b", "c"}, {chunk({"c"}, {"c", "d", "e"})}) == Lines{"a", "b", "c", "d", "e"});
}

TEST_CASE("patch application: trailing whitespace is ignored when nothing matches exactly", "[patch]") {
  CHECK(applyOk({"x", "a  ", "b\t", "y"}, {chunk({"a", "b"}, {"a", "c"})}) == Lines{"x", "a", "c", "y"});
}

TEST_CASE("patch application: leading whitespace is ignored when nothing else matches", "[patch]") {
  CHECK(applyOk({"def f():", "    return 1"}, {chunk({"def f():", "  return 1"}, {"def f():", "  return 2"})}) ==
        Lines{"def f():", "  return 2"});
}

TEST_CASE("patch application: typographic punctuation is folded last", "[patch]") {
  const Lines file{"say(\xE2\x80\x9Cx\xE2\x80\x9D)", "a \xE2\x80\x94 b"}; // say(“x”), a — b
  CHECK(applyOk(file, {chunk({"say(\"x\")", "a - b"}, {"say('y')"})}) == Lines{"say('y')"});
}

TEST_CASE("patch application: the first pass that matches decides", "[patch]") {
  // "a" matches exactly at line 3 and only trimmed at line 1: the exact one wins, no ambiguity.
  CHECK(applyOk({"  a", "x", "a"}, {chunk({"a"}, {"b"})}) == Lines{"  a", "x", "b"});
}

TEST_CASE("patch application: two chunks in file order", "[patch]") {
  const Lines file{"one", "two", "three", "four", "five"};
  CHECK(applyOk(file, {chunk({"two"}, {"2"}), chunk({"four"}, {"4", "4b"})}) ==
        Lines{"one", "2", "three", "4", "4b", "five"});
  // The second chunk is looked for after the first: out of order, it is not found.
  const auto message = applyError(file, {chunk({"four"}, {"4"}), chunk({"two"}, {"2"}, {}, false, 9)});
  CHECK(message == "chunk at patch line 9: could not find these lines in f.txt after line 4:\n  two\n"
                   "They are at lines 2, above line 5 where this chunk's search starts (after the previous chunk "
                   "or '@@' context); chunks must follow the order of the file.");
}

TEST_CASE("patch application: insertion between context lines", "[patch]") {
  CHECK(applyOk({"alpha", "omega"}, {chunk({"alpha", "omega"}, {"alpha", "beta", "omega"})}) ==
        Lines{"alpha", "beta", "omega"});
}

TEST_CASE("patch application: @@ contexts pick the block", "[patch]") {
  const Lines file{"fn a", "  x = 1", "fn b", "  x = 1", "end"};
  CHECK(applyOk(file, {chunk({"  x = 1"}, {"  x = 2"}, {"fn b"})}) == Lines{"fn a", "  x = 1", "fn b", "  x = 2", "end"});
  // Contexts narrow in turn: class, then method; indented context lines are found trimmed.
  const Lines nested{"class A", "  def f", "    return 1", "class B", "  def f", "    return 1"};
  CHECK(applyOk(nested, {chunk({"    return 1"}, {"    return 2"}, {"class B", "def f"})}) ==
        Lines{"class A", "  def f", "    return 1", "class B", "  def f", "    return 2"});
  CHECK(applyError(nested, {chunk({"return 1"}, {"return 2"}, {"class C"})}) ==
        "chunk at patch line 3: could not find the context line '@@ class C' in f.txt");
  CHECK(applyError(nested, {chunk({"return 1"}, {"return 2"}, {"class B", "class A"})}) ==
        "chunk at patch line 3: could not find the context line '@@ class A' in f.txt after line 4");
}

TEST_CASE("patch application: an ambiguous chunk is refused with both places", "[patch]") {
  const Lines file{"fn a", "  x = 1", "  y = 2", "fn b", "  x = 1", "  y = 2"};
  CHECK(applyError(file, {chunk({"  x = 1", "  y = 2"}, {"  x = 3"}, {}, false, 7)}) ==
        "chunk at patch line 7 matches lines 2-3 and 5-6 of f.txt; add an '@@ <line>' context or more context "
        "lines to say which");
  CHECK(applyError({"a", "b", "a"}, {chunk({"a"}, {"c"})}) ==
        "chunk at patch line 3 matches lines 1 and 3 of f.txt; add an '@@ <line>' context or more context lines "
        "to say which");
}

TEST_CASE("patch application: an End of File chunk matches at the end", "[patch]") {
  const Lines file{"marker", "middle", "marker"};
  CHECK(applyOk(file, {chunk({"marker"}, {"new"}, {}, true)}) == Lines{"marker", "middle", "new"});
  CHECK(applyOk({"a", "b  "}, {chunk({"b"}, {"c"}, {}, true)}) == Lines{"a", "c"});
  CHECK(applyError({"a", "b"}, {chunk({"a"}, {"c"}, {}, true)}) ==
        "chunk at patch line 3: could not find these lines in f.txt at its end:\n  a\n"
        "The nearest lines are 1:\n1: a");
  // A pure addition at the end of the file, even with a context.
  CHECK(applyOk({"a", "b"}, {chunk({}, {"c"}, {"a"}, true)}) == Lines{"a", "b", "c"});
}

TEST_CASE("patch application: a trailing empty line the file lacks is dropped", "[patch]") {
  CHECK(applyOk({"a", "b"}, {chunk({"b", ""}, {"c", ""})}) == Lines{"a", "c"});
  CHECK(applyOk({"a", "b"}, {chunk({"b", ""}, {"c", "d"})}) == Lines{"a", "c", "d"});
  CHECK(applyOk({"a", "b"}, {chunk({"b", ""}, {"c"}, {}, true)}) == Lines{"a", "c"});
  // When the file has the empty line, it is kept in the match.
  CHECK(applyOk({"a", "b", "", "z"}, {chunk({"b", ""}, {"c", ""})}) == Lines{"a", "c", "", "z"});
}

TEST_CASE("patch application: lines not found name the nearest ones", "[patch]") {
  const Lines file{"def f(x):", "    y = x", "    return y", "", "def g():", "    pass"};
  CHECK(applyError(file, {chunk({"def f():", "    y = x", "    return y + 1"}, {"def f():"}, {}, false, 12)}) ==
        "chunk at patch line 12: could not find these lines in f.txt:\n"
        "  def f():\n"
        "      y = x\n"
        "      return y + 1\n"
        "The nearest lines are 1-3:\n"
        "1: def f(x):\n"
        "2:     y = x\n"
        "3:     return y");
  CHECK(applyError(file, {chunk({"nothing", "alike"}, {})}) ==
        "chunk at patch line 3: could not find these lines in f.txt:\n  nothing\n  alike");
}

TEST_CASE("patch application: pure additions", "[patch]") {
  const Lines file{"fn a", "  body", "fn b", "  body"};
  CHECK(applyOk(file, {chunk({}, {"  first"}, {"fn b"})}) == Lines{"fn a", "  body", "fn b", "  first", "  body"});
  CHECK(applyOk(file, {chunk({}, {"fn c", "  body"})}) == Lines{"fn a", "  body", "fn b", "  body", "fn c", "  body"});
  // Two additions at the end keep their order.
  CHECK(applyOk({"a"}, {chunk({}, {"b"}), chunk({}, {"c"})}) == Lines{"a", "b", "c"});
}

TEST_CASE("patch application: an empty file takes the added lines", "[patch]") {
  CHECK(applyOk({}, {chunk({}, {"First line"})}) == Lines{"First line"});
  CHECK(applyOk({}, {chunk({""}, {"", "First line"})}) == Lines{"", "First line"});
  CHECK(applyOk({"x"}, {}) == Lines{"x"});
}

TEST_CASE("patch application: context lines that matched loosely keep the file's spelling", "[patch]") {
  // The file has trailing spaces and curly quotes the patch's context lines lack; only the '-'
  // line is replaced, and the context lines stay byte for byte as they were.
  PatchChunk c = chunk({"say(\"hi\")", "old", "end"}, {"say(\"hi\")", "new", "end"});
  c.contextOf = {0, -1, 2};
  CHECK(applyOk({"say(\u201chi\u201d)", "old", "end   "}, {c}) == Lines{"say(\u201chi\u201d)", "new", "end   "});
}

TEST_CASE("patch application: whitespace runs inside lines are collapsed", "[patch]") {
  // The file aligns with a tab; the patch wrote spaces.
  CHECK(applyOk({"x\t= 1", "y = 2"}, {chunk({"x = 1", "y = 2"}, {"x = 1", "y = 3"})}) == Lines{"x = 1", "y = 3"});
  // Still unique only: two such places are refused.
  CHECK(applyError({"a  b", "c", "a\tb"}, {chunk({"a b"}, {"x"})}).find("matches lines 1 and 3") != std::string::npos);
}

TEST_CASE("patch application: blank lines the context leaves out or adds are tolerated", "[patch]") {
  // The context leaves out the file's blank line; the file keeps it.
  PatchChunk dropped = chunk({"a()", "b()", "c()"}, {"a()", "b()", "C()"});
  dropped.contextOf = {0, 1, -1};
  CHECK(applyOk({"def f():", "a()", "", "b()", "c()"}, {dropped}) == Lines{"def f():", "a()", "", "b()", "C()"});
  // The context adds a blank line the file does not have; it is not added.
  PatchChunk added = chunk({"a()", "", "b()", "c()"}, {"a()", "", "b()", "C()"});
  added.contextOf = {0, 1, 2, -1};
  CHECK(applyOk({"a()", "b()", "c()"}, {added}) == Lines{"a()", "b()", "C()"});
  // A changed line next to a skipped blank line keeps the blank line on its side.
  PatchChunk changed = chunk({"a()", "b()", "c()"}, {"a()", "B()", "c()"});
  changed.contextOf = {0, -1, 2};
  CHECK(applyOk({"a()", "", "b()", "c()"}, {changed}) == Lines{"a()", "", "B()", "c()"});
  // Never across a non-blank line, and never ambiguous.
  CHECK(applyError({"a()", "x()", "b()"}, {chunk({"a()", "b()"}, {"c()"})}).find("could not find") != std::string::npos);
  CHECK(applyError({"a()", "", "b()", "a()", "", "", "b()"}, {chunk({"a()", "b()"}, {"c()"})})
            .find("matches lines 1-3 and 4-7") != std::string::npos);
}

TEST_CASE("patch application: after an @@ anchor the first match wins", "[patch]") {
  // The lines occur before the anchor, after it, and again further down: the first after it is changed.
  const Lines file{"def a():", "    x = 1", "def b():", "    x = 1", "def c():", "    x = 1"};
  CHECK(applyOk(file, {chunk({"    x = 1"}, {"    x = 2"}, {"def b():"})}) ==
        Lines{"def a():", "    x = 1", "def b():", "    x = 2", "def c():", "    x = 1"});
  // Without the anchor the same chunk is ambiguous.
  CHECK(applyError(file, {chunk({"    x = 1"}, {"    x = 2"})}).find("matches lines 2 and 4") != std::string::npos);
}

TEST_CASE("patch application: arrows and em dashes typed in ASCII match", "[patch]") {
  const Lines file{"def f(x) \xE2\x86\x92 int:  # a \xE2\x80\x94 b", "    return x"};
  PatchChunk c = chunk({"def f(x) -> int:  # a -- b", "    return x"}, {"def f(x) -> int:  # a -- b", "    return x + 1"});
  c.contextOf = {0, -1};
  CHECK(applyOk(file, {c}) == Lines{"def f(x) \xE2\x86\x92 int:  # a \xE2\x80\x94 b", "    return x + 1"});
}
