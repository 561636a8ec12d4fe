// The edit matcher's tolerances for what models get wrong beyond whitespace: nesting at another
// scale, letter case, fragments with whitespace drift, typographic characters both ways, a copied
// byte-order mark, a misremembered middle line — and the file's own text kept where newString
// keeps oldString's lines.
#include "builtins/edit/edit_matcher.h"

#include <catch2/catch.hpp>

#include <string>

using toold::builtins::EditPlan;
using toold::builtins::EditRequest;
using toold::builtins::MatchStep;
using toold::builtins::planEdit;
using Outcome = EditPlan::Outcome;

namespace {

EditPlan plan(std::string_view text, std::string_view oldString, std::string_view newString) {
  return planEdit(EditRequest{text, oldString, newString, false});
}

std::string applied(std::string_view text, const EditPlan& editPlan) {
  REQUIRE(editPlan.outcome == Outcome::Applied);
  REQUIRE(editPlan.spans.size() == 1);
  const auto& span = editPlan.spans.front();
  return std::string(text.substr(0, span.begin)) + editPlan.replacements.front() + std::string(text.substr(span.end));
}

} // namespace

TEST_CASE("edit tolerances: blank lines inside the block are compared by the lines around them", "[edit]") {
  // One added in the find: the file's lines are found, and the file keeps its own spacing where
  // newString keeps the find's, beside kept and changed lines alike: the model misremembered a
  // blank line, it did not ask for one.
  const std::string text = "x = 1\ny = 2\nz = 3\n";
  const EditPlan added = plan(text, "x = 1\n\ny = 2\n", "x = 1\n\ny = 20\n");
  REQUIRE(added.outcome == Outcome::Applied);
  CHECK(added.step == MatchStep::BlankLines);
  CHECK(added.spans[0].firstLine == 1);
  CHECK(added.spans[0].lastLine == 2);
  CHECK(applied(text, added) == "x = 1\ny = 20\nz = 3\n");
  // One dropped: the file's blank line stays between the lines newString keeps.
  const std::string spaced = "def f():\n    a()\n\n    b()\n    c()\n";
  const EditPlan dropped = plan(spaced, "    a()\n    b()\n    c()\n", "    a()\n    b()\n    d()\n");
  REQUIRE(dropped.outcome == Outcome::Applied);
  CHECK(dropped.step == MatchStep::BlankLines);
  CHECK(applied(spaced, dropped) == "def f():\n    a()\n\n    b()\n    d()\n");
  // Dropped beside a line newString changes in place (one line for one): the change is the
  // model's, the blank line stays the file's.
  const std::string changed = "def b():\n    y = 2\n\n    return y\n";
  const EditPlan inPlace = plan(changed, "    y = 2\n    return y", "    y = 3\n    return y");
  REQUIRE(inPlace.outcome == Outcome::Applied);
  CHECK(applied(changed, inPlace) == "def b():\n    y = 3\n\n    return y\n");
  const std::string twoChanged = "a = 1\n\nb = 2\n\nc = 3\nd = 4\n";
  const EditPlan both = plan(twoChanged, "a = 1\nb = 2\nc = 3\nd = 4\n", "a = 10\nb = 20\nc = 3\nd = 4\n");
  REQUIRE(both.outcome == Outcome::Applied);
  CHECK(applied(twoChanged, both) == "a = 10\n\nb = 20\n\nc = 3\nd = 4\n");
  // Not one for one (a line removed as well): nothing to pair the blank line with, so newString's
  // own spacing is written.
  const EditPlan removed = plan(changed, "    y = 2\n    return y", "    return 0");
  REQUIRE(removed.outcome == Outcome::Applied);
  CHECK(applied(changed, removed) == "def b():\n    return 0\n");
  // Never across a non-blank line the find does not have.
  CHECK(plan("x = 1\nw = 0\ny = 2\n", "x = 1\n\ny = 2\n", "z\n").outcome == Outcome::NotFound);
}

TEST_CASE("edit tolerances: a block written flush-left matches by its content when that is unique", "[edit]") {
  const std::string nested = "def f():\n    if a:\n        b()\n    c()\n";
  const EditPlan result = plan(nested, "if a:\nb()\nc()\n", "if a:\nb()\nd()\nc()\n");
  REQUIRE(result.outcome == Outcome::Applied);
  CHECK(result.step == MatchStep::IndentLost);
  CHECK(result.spans[0].firstLine == 2);
  CHECK(result.spans[0].lastLine == 4);
  // Kept lines keep their indentation; the new line takes the indentation of the line before it.
  CHECK(applied(nested, result) == "def f():\n    if a:\n        b()\n        d()\n    c()\n");
  // Nothing kept: the new lines take the block's first line's indentation.
  const EditPlan replaced = plan(nested, "if a:\nb()\n", "x()\n");
  REQUIRE(replaced.outcome == Outcome::Applied);
  CHECK(applied(nested, replaced) == "def f():\n    x()\n    c()\n");
  // The same content at two nestings is ambiguous, never a guess.
  const std::string twice = "if a:\n    b()\nif c:\n    if a:\n        b()\n";
  const EditPlan ambiguous = plan(twice, "if a:\nb()\n", "x\n");
  CHECK(ambiguous.outcome == Outcome::Ambiguous);
  CHECK(ambiguous.step == MatchStep::IndentLost);
  CHECK(ambiguous.spans.size() == 2);
}

TEST_CASE("edit tolerances: nesting written at another scale is rescaled, newString too", "[edit]") {
  const std::string text = "class A:\n    def f(self):\n        if x:\n            return 1\n        return 2\n";
  // 2-space levels for the file's 4.
  const EditPlan result = plan(text, "def f(self):\n  if x:\n    return 1\n  return 2\n",
                               "def f(self):\n  if x:\n    log()\n    return 1\n  return 2\n");
  REQUIRE(result.outcome == Outcome::Applied);
  CHECK(result.step == MatchStep::IndentScale);
  CHECK(result.note.find("rescaled from 2 spaces to 4 spaces per level") != std::string::npos);
  CHECK(applied(text, result) ==
        "class A:\n    def f(self):\n        if x:\n            log()\n            return 1\n        return 2\n");

  // Tabs for 3-space levels, written back as tabs.
  const std::string tabs = "int f() {\n\tif (x) {\n\t\treturn 1;\n\t}\n}\n";
  const EditPlan tabbed = plan(tabs, "if (x) {\n   return 1;\n}\n", "if (x) {\n   return 2;\n}\n");
  REQUIRE(tabbed.outcome == Outcome::Applied);
  CHECK(tabbed.step == MatchStep::IndentScale);
  CHECK(applied(tabs, tabbed) == "int f() {\n\tif (x) {\n\t\treturn 2;\n\t}\n}\n");

  // Levels that do not scale consistently are no match.
  CHECK(plan(text, "def f(self):\n  if x:\n  return 1\n  return 2\n", "x\n").outcome == Outcome::NotFound);
}

TEST_CASE("edit tolerances: letter case is ignored only when the block is unique so", "[edit]") {
  const std::string text = "def load(path):\n    data = read(path)\n    return Data(data)\n";
  const EditPlan result =
      plan(text, "def load(path):\n    data = read(path)\n    return data(data)\n",
           "def load(path):\n    data = read(path)\n    check(data)\n    return data(data)\n");
  REQUIRE(result.outcome == Outcome::Applied);
  CHECK(result.step == MatchStep::LetterCase);
  // The lines newString keeps are the file's, with the file's case.
  CHECK(applied(text, result) == "def load(path):\n    data = read(path)\n    check(data)\n    return Data(data)\n");

  const std::string twice = "x = Value(1)\ny = 2\nx = VALUE(1)\ny = 2\n";
  const EditPlan ambiguous = plan(twice, "x = value(1)\ny = 2\n", "z\n");
  CHECK(ambiguous.outcome == Outcome::Ambiguous);
  CHECK(ambiguous.step == MatchStep::LetterCase);
  // The refusal names both places and says what differs, for a retry in one turn.
  CHECK(toold::builtins::describeFailure(ambiguous, "m.py") ==
        "Found 2 matches for oldString in m.py (letter case match) at lines 1-2, 3-4. oldString is not in m.py as "
        "written; each of these places matches it only when letter case is ignored. Provide more surrounding "
        "context to make the match unique, or set replaceAll to change every one.");
}

TEST_CASE("edit tolerances: a mid-line fragment matches with whitespace drift", "[edit]") {
  const std::string text = "    result = compute(alpha, beta)  # cached\n";
  const EditPlan result = plan(text, "compute(alpha,beta)", "compute(alpha,gamma)");
  REQUIRE(result.outcome == Outcome::Applied);
  CHECK(result.step == MatchStep::Fragment);
  CHECK(applied(text, result) == "    result = compute(alpha,gamma)  # cached\n");

  // Whitespace between two words must be there; a word is never cut.
  CHECK(plan("total = a b\n", "ab", "x").outcome == Outcome::NotFound);
  CHECK(plan("value = xcompute(a, b)\n", "compute(a,b)", "x").outcome == Outcome::NotFound);
  // Line breaks and the indentation after them are compared as they are.
  const std::string nested = "if a:\n    if b:\n        x()\n    y()\n";
  CHECK(plan(nested, "if b:\n    x()\n    y()", "z").outcome == Outcome::NotFound);
  // Two places with the same text but other spacing: refused.
  const std::string twice = "f(a, b)\nf(a,  b)\n";
  CHECK(plan(twice, "f(a,b)", "g").outcome == Outcome::Ambiguous);
}

TEST_CASE("edit tolerances: typographic characters fold both ways and the file keeps its own", "[edit]") {
  // The file has an em dash and an arrow; the model typed `--` and `->`.
  const std::string text = "# wait \xE2\x80\x94 then go\ndef f(x) \xE2\x86\x92 int:\n    return x\n";
  const EditPlan result =
      plan(text, "# wait -- then go\ndef f(x) -> int:\n    return x\n", "# wait -- then go\ndef f(x) -> int:\n    return x + 1\n");
  REQUIRE(result.outcome == Outcome::Applied);
  CHECK(result.step == MatchStep::Punctuation);
  CHECK(applied(text, result) == "# wait \xE2\x80\x94 then go\ndef f(x) \xE2\x86\x92 int:\n    return x + 1\n");

  // A zero-width space the model copied is no obstacle.
  const std::string plain = "name = user.id\nrest = 1\n";
  const EditPlan zeroWidth = plan(plain, "name = user\xE2\x80\x8B.id\n", "name = user.key\n");
  REQUIRE(zeroWidth.outcome == Outcome::Applied);
  CHECK(applied(plain, zeroWidth) == "name = user.key\nrest = 1\n");
}

TEST_CASE("edit tolerances: a byte-order mark at the start of oldString is ignored", "[edit]") {
  const std::string text = "import os\nimport sys\n";
  const EditPlan result = plan(text, "\xEF\xBB\xBFimport os\n", "\xEF\xBB\xBFimport re\n");
  REQUIRE(result.outcome == Outcome::Applied);
  CHECK(result.step == MatchStep::Exact);
  CHECK(result.note.find("byte-order mark") != std::string::npos);
  CHECK(applied(text, result) == "import re\nimport sys\n");
}

TEST_CASE("edit tolerances: a find starting inside a line's indentation is matched as lines", "[edit]") {
  // "  b()" occurs verbatim inside "    b()", but the model wrote the block at 2-space levels.
  const std::string text = "def f():\n    b()\nc()\n";
  const EditPlan result = plan(text, "  b()\nc()\n", "  b()\n  d()\nc()\n");
  REQUIRE(result.outcome == Outcome::Applied);
  CHECK(result.step != MatchStep::Exact);
  CHECK(applied(text, result) == "def f():\n    b()\n    d()\nc()\n");
}

TEST_CASE("edit tolerances: a misremembered middle line stays as the file has it", "[edit]") {
  const std::string text = "def total(items):\n    sum = 0\n    for item in items:\n        sum += item.price\n"
                           "    return sum\n";
  const EditPlan result = plan(text,
                               "def total(items):\n    sum = 0\n    for item in items:\n        sum += item.cost\n"
                               "    return sum\n",
                               "def total(items):\n    sum = 0\n    for item in items:\n        sum += item.cost\n"
                               "    return round(sum)\n");
  REQUIRE(result.outcome == Outcome::Applied);
  CHECK(result.step == MatchStep::Anchors);
  CHECK(applied(text, result) == "def total(items):\n    sum = 0\n    for item in items:\n        sum += item.price\n"
                                 "    return round(sum)\n");
}

TEST_CASE("edit tolerances: anchors refuse when another window nearly matches too", "[edit]") {
  const std::string block = "def handle(request):\n    value = parse(request.body)\n    return value\n";
  const std::string other = "def handle(request):\n    value = load(request)\n    return value\n";
  const std::string find = "def handle(request):\n    value = parse(request.bodies)\n    return value\n";
  // Alone, the close block is applied (0.90 alike) ...
  CHECK(plan(block, find, "x\n").outcome == Outcome::Applied);
  // ... but a second window with the same anchors and a middle 0.59 alike makes it a guess.
  const std::string text = block + "\n" + other;
  const EditPlan result = plan(text, find, "x\n");
  CHECK(result.outcome == Outcome::Ambiguous);
  CHECK(result.step == MatchStep::Anchors);
  REQUIRE(result.spans.size() == 2);
  CHECK(result.spans[0].firstLine == 1);
  CHECK(result.spans[1].firstLine == 5);
}

TEST_CASE("edit tolerances: many byte-order marks are dropped at once", "[edit]") {
  std::string marks;
  for (int i = 0; i < 100'000; ++i) marks += "\xEF\xBB\xBF";
  const EditPlan result = plan("import os\n", marks + "import os", "import re");
  REQUIRE(result.outcome == Outcome::Applied);
  CHECK(applied("import os\n", result) == "import re\n");
  CHECK(plan("import os\n", marks, "x").outcome == Outcome::NotFound);
}
