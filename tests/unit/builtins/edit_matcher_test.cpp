#include "builtins/edit/edit_matcher.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

using toold::builtins::describeFailure;
using toold::builtins::EditPlan;
using toold::builtins::EditRequest;
using toold::builtins::MatchedSpan;
using toold::builtins::MatchStep;
using toold::builtins::planEdit;
using Outcome = EditPlan::Outcome;

namespace {

EditPlan plan(std::string_view text, std::string_view oldString, std::string_view newString, bool replaceAll = false) {
  return planEdit(EditRequest{text, oldString, newString, replaceAll});
}

// The text with the plan's replacements put in.
std::string applied(std::string_view text, const EditPlan& editPlan) {
  REQUIRE(editPlan.outcome == Outcome::Applied);
  REQUIRE(editPlan.spans.size() == editPlan.replacements.size());
  std::string out;
  std::size_t pos = 0;
  for (std::size_t i = 0; i < editPlan.spans.size(); ++i) {
    REQUIRE(editPlan.spans[i].begin >= pos);
    out += text.substr(pos, editPlan.spans[i].begin - pos);
    out += editPlan.replacements[i];
    pos = editPlan.spans[i].end;
  }
  out += text.substr(pos);
  return out;
}

void checkSpan(const MatchedSpan& span, std::size_t begin, std::size_t end, int firstLine, int lastLine) {
  CHECK(span.begin == begin);
  CHECK(span.end == end);
  CHECK(span.firstLine == firstLine);
  CHECK(span.lastLine == lastLine);
}

} // namespace

TEST_CASE("edit matcher: a unique exact occurrence is replaced verbatim, even mid-line", "[edit]") {
  const std::string text = "alpha\nbeta\ngamma\n";
  const EditPlan result = plan(text, "beta", "BETA");
  REQUIRE(result.outcome == Outcome::Applied);
  CHECK(result.step == MatchStep::Exact);
  REQUIRE(result.spans.size() == 1);
  checkSpan(result.spans[0], 6, 10, 2, 2);
  CHECK(result.replacements == std::vector<std::string>{"BETA"});
  CHECK(result.note.empty());
  CHECK(applied(text, result) == "alpha\nBETA\ngamma\n");

  const std::string code = "int x = foo(1);\n";
  const EditPlan middle = plan(code, "foo(1)", "bar(2)");
  REQUIRE(middle.outcome == Outcome::Applied);
  checkSpan(middle.spans[0], 8, 14, 1, 1);
  CHECK(applied(code, middle) == "int x = bar(2);\n");

  const std::string lines = "a\nb\nc\n";
  const EditPlan withNewline = plan(lines, "b\nc\n", "B\n");
  REQUIRE(withNewline.outcome == Outcome::Applied);
  checkSpan(withNewline.spans[0], 2, 6, 2, 3);
  CHECK(applied(lines, withNewline) == "a\nB\n");
}

TEST_CASE("edit matcher: an ambiguous exact match is refused even when a looser step is unique", "[edit]") {
  // Only line 1 is the whole line `foo()`, but the exact step already sees two occurrences.
  const std::string text = "foo()\n  foo() // again\n";
  const EditPlan result = plan(text, "foo()", "bar()");
  REQUIRE(result.outcome == Outcome::Ambiguous);
  CHECK(result.step == MatchStep::Exact);
  REQUIRE(result.spans.size() == 2);
  checkSpan(result.spans[0], 0, 5, 1, 1);
  checkSpan(result.spans[1], 8, 13, 2, 2);
  CHECK(result.replacements.empty());

  // Overlapping occurrences count as two.
  const EditPlan overlapping = plan("aaa", "aa", "b");
  REQUIRE(overlapping.outcome == Outcome::Ambiguous);
  REQUIRE(overlapping.spans.size() == 2);
  checkSpan(overlapping.spans[1], 1, 3, 1, 1);
}

TEST_CASE("edit matcher: replaceAll replaces every exact occurrence, keeping $ sequences literal", "[edit]") {
  const std::string text = "a.b + a.b\nc\n";
  const EditPlan result = plan(text, "a.b", "$&-$1-$$", true);
  REQUIRE(result.outcome == Outcome::Applied);
  CHECK(result.step == MatchStep::Exact);
  REQUIRE(result.spans.size() == 2);
  checkSpan(result.spans[0], 0, 3, 1, 1);
  checkSpan(result.spans[1], 6, 9, 1, 1);
  CHECK(result.replacements == std::vector<std::string>{"$&-$1-$$", "$&-$1-$$"});
  CHECK(applied(text, result) == "$&-$1-$$ + $&-$1-$$\nc\n");

  // Overlapping occurrences: greedy, left to right, never overlapping.
  const EditPlan overlapping = plan("aaaa", "aa", "b", true);
  REQUIRE(overlapping.outcome == Outcome::Applied);
  REQUIRE(overlapping.spans.size() == 2);
  CHECK(applied("aaaa", overlapping) == "bb");
  const EditPlan odd = plan("aaa", "aa", "b", true);
  REQUIRE(odd.spans.size() == 1);
  CHECK(applied("aaa", odd) == "ba");
}

TEST_CASE("edit matcher: trailing whitespace in the file is ignored, whole lines replaced", "[edit]") {
  const std::string text = "int a = 1;   \nint b = 2;\t\nint c = 3;\n";
  const EditPlan result = plan(text, "int a = 1;\nint b = 2;\n", "int a = 10;\nint b = 20;\n");
  REQUIRE(result.outcome == Outcome::Applied);
  CHECK(result.step == MatchStep::TrailingSpace);
  REQUIRE(result.spans.size() == 1);
  checkSpan(result.spans[0], 0, 26, 1, 2);
  CHECK(result.note == "matched ignoring trailing whitespace");
  CHECK(applied(text, result) == "int a = 10;\nint b = 20;\nint c = 3;\n");

  // Without a final newline in the find, the last line's '\n' stays.
  const EditPlan noNewline = plan(text, "int a = 1;\nint b = 2;", "X");
  REQUIRE(noNewline.outcome == Outcome::Applied);
  checkSpan(noNewline.spans[0], 0, 25, 1, 2);
  CHECK(applied(text, noNewline) == "X\nint c = 3;\n");
}

TEST_CASE("edit matcher: a find with trailing spaces matches a clean LF file", "[edit]") {
  const std::string text = "one\ntwo\nthree\n";
  const EditPlan result = plan(text, "one  \ntwo \n", "ONE\nTWO\n");
  REQUIRE(result.outcome == Outcome::Applied);
  CHECK(result.step == MatchStep::TrailingSpace);
  checkSpan(result.spans[0], 0, 8, 1, 2);
  CHECK(applied(text, result) == "ONE\nTWO\nthree\n");

  // Trailing whitespace never excuses different leading whitespace.
  const EditPlan indented = plan("  one\n  two\n", "one \ntwo \n", "X\nY\n");
  REQUIRE(indented.outcome == Outcome::Applied);
  CHECK(indented.step == MatchStep::Indentation);
  CHECK(applied("  one\n  two\n", indented) == "  X\n  Y\n");
}

TEST_CASE("edit matcher: a tab-indented file matches a 4-space find and gets tabs back", "[edit]") {
  const std::string text = "def f(x):\n\tif x:\n\t\treturn 1\n\treturn 0\n";
  const EditPlan result = plan(text, "    if x:\n        return 1\n",
                               "    if x:\n        print(x)\n        return 1\n    else:\n        pass\n");
  REQUIRE(result.outcome == Outcome::Applied);
  CHECK(result.step == MatchStep::Indentation);
  REQUIRE(result.spans.size() == 1);
  checkSpan(result.spans[0], 10, 28, 2, 3);
  CHECK(result.replacements[0] == "\tif x:\n\t\tprint(x)\n\t\treturn 1\n\telse:\n\t\tpass\n");
  CHECK(result.note ==
        "indentation shifted from 4 spaces to 1 tab; nested indentation converted from 4 spaces to tabs");
  CHECK(applied(text, result) == "def f(x):\n\tif x:\n\t\tprint(x)\n\t\treturn 1\n\telse:\n\t\tpass\n\treturn 0\n");
}

TEST_CASE("edit matcher: a tab find matches a 2-space file and gets spaces back", "[edit]") {
  const std::string text = "if (a) {\n  b();\n}\n";
  const EditPlan result = plan(text, "if (a) {\n\tb();\n}\n", "if (a) {\n\tc();\n\td();\n}\n");
  REQUIRE(result.outcome == Outcome::Applied);
  CHECK(result.step == MatchStep::Indentation);
  CHECK(result.note == "nested indentation converted from tabs to 2 spaces");
  CHECK(applied(text, result) == "if (a) {\n  c();\n  d();\n}\n");
}

TEST_CASE("edit matcher: a find indented one level too deep or too shallow is shifted back", "[edit]") {
  const std::string text = "class A:\n    def f(self):\n        return 1\n";

  const EditPlan deep =
      plan(text, "        def f(self):\n            return 1\n", "        def f(self):\n            return 2\n# end\n");
  REQUIRE(deep.outcome == Outcome::Applied);
  CHECK(deep.step == MatchStep::Indentation);
  checkSpan(deep.spans[0], 9, text.size(), 2, 3);
  CHECK(deep.note == "indentation shifted from 8 spaces to 4 spaces");
  // The line indented less than the find's base stays as it is.
  CHECK(deep.replacements[0] == "    def f(self):\n        return 2\n# end\n");

  const EditPlan shallow = plan(text, "def f(self):\n    return 1\n", "def f(self):\n\n    return 2\n");
  REQUIRE(shallow.outcome == Outcome::Applied);
  CHECK(shallow.step == MatchStep::Indentation);
  CHECK(shallow.note == "indentation shifted from no indentation to 4 spaces");
  CHECK(applied(text, shallow) == "class A:\n    def f(self):\n\n        return 2\n");
}

TEST_CASE("edit matcher: an inner block never matches lines with different relative indentation", "[edit]") {
  const std::string text = "if a:\n    if b:\n        x()\n    y()\n";
  // The find nests y() inside `if b`; in the file it is outside.
  const EditPlan result = plan(text, "if b:\n    x()\n    y()\n", "if b:\n    z()\n");
  CHECK(result.outcome == Outcome::NotFound);
  CHECK(result.spans.empty());
  REQUIRE(result.closest);
  CHECK(result.closest->firstLine == 2);
  CHECK(result.closest->lastLine == 4);

}

TEST_CASE("edit matcher: whitespace runs inside lines are collapsed", "[edit]") {
  const std::string text = "x = 0\n    total  =  a +\tb\ny = 1\n";
  const EditPlan result = plan(text, "total = a + b\n", "total = a - b\n");
  REQUIRE(result.outcome == Outcome::Applied);
  CHECK(result.step == MatchStep::InnerSpace);
  checkSpan(result.spans[0], 6, 26, 2, 2);
  CHECK(result.note == "matched ignoring whitespace inside lines; indentation shifted from no indentation to 4 spaces");
  CHECK(applied(text, result) == "x = 0\n    total = a - b\ny = 1\n");
}

TEST_CASE("edit matcher: a find sent with literal escapes is unescaped, the replacement is not", "[edit]") {
  const std::string text = "first();\nsecond();\nthird();\n";
  const EditPlan result = plan(text, "first();\\nsecond();", "only();\\n");
  REQUIRE(result.outcome == Outcome::Applied);
  CHECK(result.step == MatchStep::Escapes);
  checkSpan(result.spans[0], 0, 18, 1, 2);
  CHECK(result.replacements[0] == "only();\\n");
  CHECK(result.note.find("unescaping") != std::string::npos);

  const std::string quoted = "say(\"hi\")\n\tdone()\n";
  const EditPlan quotes = plan(quoted, "say(\\\"hi\\\")\\n\\tdone()", "x");
  REQUIRE(quotes.outcome == Outcome::Applied);
  CHECK(quotes.step == MatchStep::Escapes);
  checkSpan(quotes.spans[0], 0, 17, 1, 2);

  // A backslash that is part of the file's text matches exactly first.
  const std::string regex = "pattern = \"\\n+\"\n";
  const EditPlan literal = plan(regex, "\"\\n+\"", "\"\\r+\"");
  REQUIRE(literal.outcome == Outcome::Applied);
  CHECK(literal.step == MatchStep::Exact);
  CHECK(applied(regex, literal) == "pattern = \"\\r+\"\n");
}

TEST_CASE("edit matcher: typographic quotes and dashes match their ASCII forms", "[edit]") {
  const std::string text = "msg = \"don't stop - now\"\nend = 1\n";
  const EditPlan result = plan(text,
                               "msg = \xE2\x80\x9C"
                               "don\xE2\x80\x99t stop \xE2\x80\x94 now\xE2\x80\x9D\n",
                               "msg = \"go\"\n");
  REQUIRE(result.outcome == Outcome::Applied);
  CHECK(result.step == MatchStep::Punctuation);
  checkSpan(result.spans[0], 0, 25, 1, 1);
  CHECK(result.note == "matched ignoring typographic quotes, dashes and spaces");
  CHECK(applied(text, result) == "msg = \"go\"\nend = 1\n");

  // And the other way round: the file has the typographic ones.
  const std::string fancy = "title: \xE2\x80\x9CHello\xE2\x80\xA6\xE2\x80\x9D\n";
  const EditPlan reverse = plan(fancy, "title: \"Hello...\"", "title: \"Bye\"");
  REQUIRE(reverse.outcome == Outcome::Applied);
  CHECK(reverse.step == MatchStep::Punctuation);
  CHECK(applied(fancy, reverse) == "title: \"Bye\"\n");
}

TEST_CASE("edit matcher: blank lines around the find are ignored, and dropped from the replacement", "[edit]") {
  const std::string text = "a\nb\nc\n";
  const EditPlan result = plan(text, "\nb\n\n", "\nB\n\n");
  REQUIRE(result.outcome == Outcome::Applied);
  CHECK(result.step == MatchStep::BlankLines);
  checkSpan(result.spans[0], 2, 4, 2, 2);
  CHECK(result.replacements[0] == "B\n");
  CHECK(result.note == "matched ignoring blank lines");
  CHECK(applied(text, result) == "a\nB\nc\n");
}

TEST_CASE("edit matcher: anchors accept one slightly different middle line", "[edit]") {
  const std::string text = "import os\n"
                           "def total(items):\n"
                           "    sum = 0\n"
                           "    for item in items:\n"
                           "        sum += item.price\n"
                           "    return sum\n"
                           "print(total([]))\n";
  const std::string find = "def total(items):\n"
                           "    sum = 0\n"
                           "    for item in items:\n"
                           "        sum += item.cost\n"
                           "    return sum\n";
  const std::string replacement = "def total(items):\n    return 0\n";
  const EditPlan result = plan(text, find, replacement);
  REQUIRE(result.outcome == Outcome::Applied);
  CHECK(result.step == MatchStep::Anchors);
  REQUIRE(result.spans.size() == 1);
  checkSpan(result.spans[0], 10, text.find("print"), 2, 6);
  CHECK(result.note == "matched by its first and last lines; 1 of 3 middle lines differ");
  CHECK(applied(text, result) == "import os\ndef total(items):\n    return 0\nprint(total([]))\n");
}

TEST_CASE("edit matcher: anchors refuse three differing middle lines", "[edit]") {
  const std::string text = "def f():\n    a = 1\n    b = 2\n    c = 3\n    d = 4\n    e = 5\n    return a\n";
  const std::string find = "def f():\n    a = 1\n    b = 9\n    c = 8\n    d = 7\n    e = 5\n    return a\n";
  const EditPlan result = plan(text, find, "x\n");
  CHECK(result.outcome == Outcome::NotFound);
  REQUIRE(result.closest);
  CHECK(result.closest->firstLine == 1);
  CHECK(result.closest->lastLine == 7);
  CHECK(result.closest->equalLines == 4);

  // Two of five differing is accepted; two of four is not (half the middle).
  const std::string two = "def f():\n    a = 1\n    b = 9\n    c = 8\n    d = 4\n    e = 5\n    return a\n";
  CHECK(plan(text, two, "x\n").outcome == Outcome::Applied);
  const std::string shortText = "def f():\n    a = 1\n    b = 2\n    c = 3\n    d = 4\n    return a\n";
  const std::string half = "def f():\n    a = 1\n    b = 9\n    c = 8\n    d = 4\n    return a\n";
  CHECK(plan(shortText, half, "x\n").outcome == Outcome::NotFound);
}

TEST_CASE("edit matcher: anchors refuse a dissimilar middle and trivial anchor lines", "[edit]") {
  const std::string text = "x := 1\ncompletely different text here\nz := 3\n";
  const EditPlan dissimilar = plan(text, "x := 1\ny := 2\nz := 3\n", "w := 0\n");
  CHECK(dissimilar.outcome == Outcome::NotFound);
  CHECK(dissimilar.spans.empty());

  // A close middle line would be accepted with these anchors...
  const std::string close = "x := 1\ny := 3\nz := 3\n";
  const EditPlan accepted = plan(close, "x := 1\ny := 2\nz := 3\n", "w := 0\n");
  REQUIRE(accepted.outcome == Outcome::Applied);
  CHECK(accepted.step == MatchStep::Anchors);
  CHECK(applied(close, accepted) == "w := 0\n");

  // ...but not with `}` as an anchor (opencode issue #14046 replaced the wrong block so).
  const std::string braces = "func a() {\n\tx := 1\n}\n";
  CHECK(plan(braces, "func a() {\n\tx := 2\n}\n", "func a() {}\n").outcome == Outcome::NotFound);
  const std::string blocks = "}\n\ty := 1\n}\n";
  CHECK(plan(blocks, "}\n\ty := 2\n}\n", "}\n").outcome == Outcome::NotFound);
  const std::string rubyish = "end\n  y = 1\nend\n";
  CHECK(plan(rubyish, "end\n  y = 2\nend\n", "end\n").outcome == Outcome::NotFound);
}

TEST_CASE("edit matcher: a fuzzy step finding two blocks refuses and names both ranges", "[edit]") {
  const std::string text = "class A:\n"
                           "    def f(self):\n"
                           "        return 1\n"
                           "class B:\n"
                           "        def f(self):\n"
                           "            return 1\n";
  const std::string find = "def f(self):\n    return 1\n";
  const EditPlan result = plan(text, find, "def f(self):\n    return 2\n");
  REQUIRE(result.outcome == Outcome::Ambiguous);
  CHECK(result.step == MatchStep::Indentation);
  REQUIRE(result.spans.size() == 2);
  CHECK(result.spans[0].firstLine == 2);
  CHECK(result.spans[0].lastLine == 3);
  CHECK(result.spans[1].firstLine == 5);
  CHECK(result.spans[1].lastLine == 6);
  CHECK(describeFailure(result, "a.py") ==
        "Found 2 matches for oldString in a.py (indentation match) at lines 2-3, 5-6. oldString is not in a.py as "
        "written; each of these places matches it only with its indentation shifted. Provide more surrounding "
        "context to make the match unique, or set replaceAll to change every one.");

  // Anchors are just as strict.
  const std::string twice = "def g():\n    a = 1\n    return a\ndef g():\n    a = 2\n    return a\n";
  const EditPlan anchors = plan(twice, "def g():\n    a = 3\n    return a\n", "x\n");
  REQUIRE(anchors.outcome == Outcome::Ambiguous);
  CHECK(anchors.step == MatchStep::Anchors);
  REQUIRE(anchors.spans.size() == 2);
  checkSpan(anchors.spans[0], 0, 32, 1, 3);
  checkSpan(anchors.spans[1], 32, 64, 4, 6);
}

TEST_CASE("edit matcher: replaceAll with a line step re-indents each block by its own shift", "[edit]") {
  const std::string text = "class A:\n"
                           "    def f(self):\n"
                           "        return 1\n"
                           "class B:\n"
                           "        def f(self):\n"
                           "            return 1\n";
  const EditPlan result = plan(text, "def f(self):\n    return 1\n", "def f(self):\n    return 2\n", true);
  REQUIRE(result.outcome == Outcome::Applied);
  CHECK(result.step == MatchStep::Indentation);
  REQUIRE(result.spans.size() == 2);
  CHECK(result.replacements[0] == "    def f(self):\n        return 2\n");
  CHECK(result.replacements[1] == "        def f(self):\n            return 2\n");
  CHECK(result.note == "indentation adjusted to each match");
  CHECK(applied(text, result) == "class A:\n"
                                 "    def f(self):\n"
                                 "        return 2\n"
                                 "class B:\n"
                                 "        def f(self):\n"
                                 "            return 2\n");

  // Overlapping windows: greedy, never overlapping.
  const std::string repeated = "  a\n  a\n  a\n";
  const EditPlan windows = plan(repeated, "a\na\n", "b\n", true);
  REQUIRE(windows.outcome == Outcome::Applied);
  REQUIRE(windows.spans.size() == 1);
  CHECK(applied(repeated, windows) == "  b\n  a\n");
  CHECK(plan(repeated, "a\na\n", "b\n").spans.size() == 2);
}

TEST_CASE("edit matcher: a match never spans more lines than the find", "[edit]") {
  const std::string text = "start()\nmiddle()\nextra()\nfinish()\n";
  const EditPlan result = plan(text, "start()\nmiddle()\nfinish()\n", "done()\n");
  REQUIRE(result.outcome == Outcome::NotFound);
  REQUIRE(result.closest);
  CHECK(result.closest->firstLine == 1);
  CHECK(result.closest->lastLine == 3);
  CHECK(result.closest->equalLines == 2);
  CHECK(result.closest->text == "1: start()\n2: middle()\n3: extra()");

  // Every applied line step covers exactly the find's line count.
  const std::string spaced = "  one\n  two\n  three\n";
  const EditPlan lines = plan(spaced, "one\ntwo", "x");
  REQUIRE(lines.outcome == Outcome::Applied);
  CHECK(lines.spans[0].lastLine - lines.spans[0].firstLine == 1);
}

TEST_CASE("edit matcher: the final newline follows the find and the file's last line", "[edit]") {
  // The find ends with '\n' but the file's last line has none: the replacement loses its '\n'.
  const std::string text = "a\nb";
  const EditPlan result = plan(text, "b\n", "c\n");
  REQUIRE(result.outcome == Outcome::Applied);
  CHECK(result.step == MatchStep::TrailingSpace);
  checkSpan(result.spans[0], 2, 3, 2, 2);
  CHECK(applied(text, result) == "a\nc");
}

TEST_CASE("edit matcher: NotFound names the closest block with line numbers", "[edit]") {
  const std::string text = "a = 1\nb = 2\nc = 3\nd = 4\ne = 5\n";
  const EditPlan result = plan(text, "b = 2\nc = 3\nzzz = 0\n", "x\n");
  REQUIRE(result.outcome == Outcome::NotFound);
  REQUIRE(result.closest);
  CHECK(result.closest->firstLine == 2);
  CHECK(result.closest->lastLine == 4);
  CHECK(result.closest->equalLines == 2);
  CHECK(result.closest->text == "2: b = 2\n3: c = 3\n4: d = 4");

  const EditPlan nothing = plan(text, "zzz\nyyy\n", "x\n");
  REQUIRE(nothing.outcome == Outcome::NotFound);
  CHECK_FALSE(nothing.closest);

  CHECK(plan(text, "", "x").outcome == Outcome::NotFound);
  CHECK(plan("", "a", "x").outcome == Outcome::NotFound);
}

TEST_CASE("edit matcher: describeFailure words NotFound and Ambiguous for the model", "[edit]") {
  const std::string text = "a = 1\nb = 2\nc = 3\n";
  const EditPlan closest = plan(text, "a = 1\nb = 20\n", "x\n");
  CHECK(describeFailure(closest, "src/x.py") ==
        "Could not find oldString in src/x.py. It must match the file's text, including indentation, line by line."
        "\n\nThe most similar block is at lines 1-2 (1 of 2 lines equal):\n1: a = 1\n2: b = 2"
        "\n\nRead the file again and retry with the exact text.");

  const EditPlan none = plan(text, "nothing", "x");
  CHECK(describeFailure(none, "src/x.py") ==
        "Could not find oldString in src/x.py. It must match the file's text, including indentation, line by line."
        "\n\nRead the file again and retry with the exact text.");

  std::string many;
  for (int i = 0; i < 25; ++i) many += "x\n";
  const EditPlan ambiguous = plan(many, "x", "y");
  REQUIRE(ambiguous.outcome == Outcome::Ambiguous);
  CHECK(describeFailure(ambiguous, "m.txt") ==
        "Found 25 matches for oldString in m.txt (exact match) at lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, "
        "14, 15, 16, 17, 18, 19, 20 and 5 more. Provide more surrounding context to make the match unique, or set "
        "replaceAll to change every one.");

  CHECK(describeFailure(plan(text, "b = 2", "x"), "src/x.py").empty());
}

TEST_CASE("edit matcher: a 10,000-line file with an anchors-only match is planned", "[edit]") {
  std::string text;
  for (int i = 0; i < 2500; ++i) {
    const std::string n = std::to_string(i);
    text += "def f" + n + "(x):\n    a = x + " + n + "\n    b = a * 2\n    return b + " + n + "\n";
  }
  const std::string find = "def f1777(x):\n    a = x + 1777\n    b = a * 3\n    return b + 1777\n";
  const EditPlan result = plan(text, find, "def f1777(x):\n    return 0\n");
  REQUIRE(result.outcome == Outcome::Applied);
  CHECK(result.step == MatchStep::Anchors);
  REQUIRE(result.spans.size() == 1);
  CHECK(result.spans[0].firstLine == 1777 * 4 + 1);
  CHECK(result.spans[0].lastLine == 1777 * 4 + 4);
  const std::string after = applied(text, result);
  CHECK(after.find("def f1777(x):\n    return 0\ndef f1778(x):\n") != std::string::npos);
  CHECK(after.size() == text.size() - find.size() + 27);
}

TEST_CASE("edit matcher: notes say what was tolerated in combined steps", "[edit]") {
  const std::string text = "  first();\n  second();\n";
  const EditPlan escaped = plan(text, "first();\\nsecond();\\n", "x\\n");
  REQUIRE(escaped.outcome == Outcome::Applied);
  CHECK(escaped.step == MatchStep::Escapes);
  checkSpan(escaped.spans[0], 0, text.size(), 1, 2);
  CHECK(escaped.note ==
        "matched after unescaping oldString's \\n, \\t, \\\" …; indentation shifted from no indentation to 2 spaces");
  // newString is not unescaped, only re-indented.
  CHECK(escaped.replacements[0] == "  x\\n");

  const std::string nested = "if a:\n    b()\n    c()\n";
  const EditPlan blank = plan(nested, "\nb()\nc()\n\n", "\nd()\n\n");
  REQUIRE(blank.outcome == Outcome::Applied);
  CHECK(blank.step == MatchStep::BlankLines);
  checkSpan(blank.spans[0], 6, nested.size(), 2, 3);
  CHECK(blank.note == "matched ignoring blank lines; indentation shifted from no indentation to 4 spaces");
  CHECK(applied(nested, blank) == "if a:\n    d()\n");
}

TEST_CASE("edit matcher: the closest block prefers the first of equally close windows", "[edit]") {
  const std::string text = "k = 1\nv = 2\nk = 1\nv = 2\n";
  const EditPlan result = plan(text, "k = 1\nv = 3\n", "x\n");
  REQUIRE(result.outcome == Outcome::NotFound);
  REQUIRE(result.closest);
  CHECK(result.closest->firstLine == 1);
  CHECK(result.closest->lastLine == 2);
  CHECK(result.closest->equalLines == 1);
}

TEST_CASE("edit matcher: plans of arbitrary inputs keep their invariants", "[edit]") {
  // Deterministic pseudo-random files and finds from a few similar lines: whatever the outcome,
  // spans are in the text, ordered, never overlapping, and line steps keep the find's line count.
  const std::vector<std::string> pool = {
      "a", "  a", "\ta", "b  ", "", "  ", "}", "x = 1", "x  = 1", "\xE2\x80\x9Cq\xE2\x80\x9D", "\"q\""};
  std::uint32_t seed = 12345;
  const auto next = [&seed](std::size_t bound) {
    seed = seed * 1664525u + 1013904223u;
    return static_cast<std::size_t>((seed >> 8) % bound);
  };
  for (int round = 0; round < 400; ++round) {
    std::string text;
    const std::size_t fileLines = next(12);
    for (std::size_t i = 0; i < fileLines; ++i)
      text += pool[next(pool.size())] + (next(8) == 0 && i + 1 == fileLines ? "" : "\n");
    std::string find;
    const std::size_t findLines = 1 + next(4);
    for (std::size_t i = 0; i < findLines; ++i)
      find += pool[next(pool.size())] + (i + 1 < findLines || next(2) == 0 ? "\n" : "");
    if (find.empty()) continue;
    const bool all = next(2) == 0;
    const EditPlan result = plan(text, find, "R\n", all);
    INFO("text: " << text << "\nfind: " << find);
    if (result.outcome == Outcome::NotFound) {
      CHECK(result.spans.empty());
      continue;
    }
    if (result.outcome == Outcome::Ambiguous) {
      CHECK(result.spans.size() >= 2);
      CHECK_FALSE(all);
    } else {
      CHECK(result.spans.size() == result.replacements.size());
      if (!all) CHECK(result.spans.size() == 1);
    }
    std::size_t previousEnd = 0;
    for (const MatchedSpan& span : result.spans) {
      CHECK(span.begin < span.end);
      CHECK(span.end <= text.size());
      if (result.outcome == Outcome::Applied) CHECK(span.begin >= previousEnd);
      previousEnd = span.end;
      const bool blankTolerant = result.step == MatchStep::BlankLines || result.step == MatchStep::IndentScale ||
                                 result.step == MatchStep::LetterCase || result.step == MatchStep::IndentLost;
      if (blankTolerant) {
        // As many non-blank lines as the find has, and blank lines only between them.
        const auto nonBlank = [](std::string_view s) {
          std::size_t count = 0;
          std::size_t pos = 0;
          while (pos <= s.size()) {
            const std::size_t end = std::min(s.find('\n', pos), s.size());
            if (s.substr(pos, end - pos).find_first_not_of(" \t\r\f\v") != std::string_view::npos) ++count;
            pos = end + 1;
          }
          return count;
        };
        const std::string_view spanned = std::string_view(text).substr(span.begin, span.end - span.begin);
        CHECK(nonBlank(spanned) == nonBlank(find));
      } else if (result.step != MatchStep::Exact && result.step != MatchStep::Escapes &&
                 result.step != MatchStep::Fragment) {
        const auto expected =
            static_cast<std::size_t>(std::count(find.begin(), find.end(), '\n')) + (find.back() == '\n' ? 0 : 1);
        CHECK(static_cast<std::size_t>(span.lastLine - span.firstLine + 1) == expected);
      }
    }
  }
}
