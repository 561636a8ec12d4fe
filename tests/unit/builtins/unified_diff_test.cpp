#include "builtins/text/unified_diff.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

using toold::builtins::trimDiffIndentation;
using toold::builtins::unifiedDiff;

namespace {

// The four header lines jsdiff's createTwoFilesPatch writes for a path.
std::string header(const std::string& path = "a.txt") {
  return "Index: " + path + "\n===================================================================\n--- " + path +
         "\n+++ " + path + "\n";
}

// "line 1\n" … "line n\n", with the listed line numbers upper-cased to "LINE k".
std::string numbered(int count, std::initializer_list<int> changed = {}) {
  std::string text;
  for (int i = 1; i <= count; ++i) {
    const bool isChanged = std::find(changed.begin(), changed.end(), i) != changed.end();
    text += (isChanged ? "LINE " : "line ") + std::to_string(i) + "\n";
  }
  return text;
}

} // namespace

// Expected texts below are what jsdiff 8's createTwoFilesPatch(path, path, before, after,
// undefined, undefined, {context}) returns for the same inputs.

TEST_CASE("unified diff: a single changed line, with the jsdiff header", "[text]") {
  const auto diff = unifiedDiff("a.txt", "one\ntwo\nthree\n", "one\nTWO\nthree\n");
  CHECK(diff.text == header() + "@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n");
  CHECK(diff.additions == 1);
  CHECK(diff.deletions == 1);
}

TEST_CASE("unified diff: identical inputs give only the header", "[text]") {
  const auto diff = unifiedDiff("dir/b.ts", "same\n", "same\n");
  CHECK(diff.text == header("dir/b.ts"));
  CHECK(diff.additions == 0);
  CHECK(diff.deletions == 0);
  CHECK(unifiedDiff("e", "", "").text == header("e"));
}

TEST_CASE("unified diff: insertions at the start and at the end", "[text]") {
  const auto atStart = unifiedDiff("a.txt", "a\nb\nc\nd\ne\n", "new\na\nb\nc\nd\ne\n");
  CHECK(atStart.text == header() + "@@ -1,3 +1,4 @@\n+new\n a\n b\n c\n");
  CHECK(atStart.additions == 1);
  CHECK(atStart.deletions == 0);

  const auto atEnd = unifiedDiff("a.txt", "a\nb\nc\nd\ne\n", "a\nb\nc\nd\ne\nnew\n");
  CHECK(atEnd.text == header() + "@@ -3,3 +3,4 @@\n c\n d\n e\n+new\n");
}

TEST_CASE("unified diff: a deleted line in the middle", "[text]") {
  const auto diff = unifiedDiff("a.txt", "a\nb\nc\nd\ne\nf\ng\nh\n", "a\nb\nc\nd\nf\ng\nh\n");
  CHECK(diff.text == header() + "@@ -2,7 +2,6 @@\n b\n c\n d\n-e\n f\n g\n h\n");
  CHECK(diff.additions == 0);
  CHECK(diff.deletions == 1);
}

TEST_CASE("unified diff: a new file and a file emptied name the line before an empty side", "[text]") {
  const auto created = unifiedDiff("a.txt", "", "a\nb\n");
  CHECK(created.text == header() + "@@ -0,0 +1,2 @@\n+a\n+b\n");
  CHECK(created.additions == 2);

  const auto emptied = unifiedDiff("a.txt", "a\nb\n", "");
  CHECK(emptied.text == header() + "@@ -1,2 +0,0 @@\n-a\n-b\n");
  CHECK(emptied.deletions == 2);
}

TEST_CASE("unified diff: a missing final newline is marked after that side's last line", "[text]") {
  // Adding the final newline changes the last line.
  CHECK(unifiedDiff("a.txt", "a\nb", "a\nb\n").text ==
        header() + "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n");
  CHECK(unifiedDiff("a.txt", "a\nb\nc\n", "a\nb\nC").text ==
        header() + "@@ -1,3 +1,3 @@\n a\n b\n-c\n+C\n\\ No newline at end of file\n");
  CHECK(unifiedDiff("a.txt", "a\nb", "a\nc").text ==
        header() + "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n");
  // An unchanged last line without a newline, shown as context.
  CHECK(unifiedDiff("a.txt", "a\nb\nc", "A\nb\nc").text ==
        header() + "@@ -1,3 +1,3 @@\n-a\n+A\n b\n c\n\\ No newline at end of file\n");
}

TEST_CASE("unified diff: distant changes make two hunks, close ones merge", "[text]") {
  const auto distant = unifiedDiff("a.txt", numbered(20), numbered(20, {2, 18}));
  CHECK(distant.text == header() +
                            "@@ -1,5 +1,5 @@\n line 1\n-line 2\n+LINE 2\n line 3\n line 4\n line 5\n"
                            "@@ -15,6 +15,6 @@\n line 15\n line 16\n line 17\n-line 18\n+LINE 18\n line 19\n line 20\n");
  CHECK(distant.additions == 2);
  CHECK(distant.deletions == 2);

  const auto close = unifiedDiff("a.txt", numbered(20), numbered(20, {2, 8}));
  CHECK(close.text == header() +
                          "@@ -1,11 +1,11 @@\n line 1\n-line 2\n+LINE 2\n line 3\n line 4\n line 5\n line 6\n"
                          " line 7\n-line 8\n+LINE 8\n line 9\n line 10\n line 11\n");
}

TEST_CASE("unified diff: hunks merge across at most twice the context", "[text]") {
  // Six unchanged lines between the changes: one hunk.
  CHECK(unifiedDiff("a.txt", numbered(20), numbered(20, {5, 12})).text ==
        header() +
            "@@ -2,14 +2,14 @@\n line 2\n line 3\n line 4\n-line 5\n+LINE 5\n line 6\n line 7\n line 8\n"
            " line 9\n line 10\n line 11\n-line 12\n+LINE 12\n line 13\n line 14\n line 15\n");
  // Seven: two.
  CHECK(unifiedDiff("a.txt", numbered(20), numbered(20, {5, 13})).text ==
        header() +
            "@@ -2,7 +2,7 @@\n line 2\n line 3\n line 4\n-line 5\n+LINE 5\n line 6\n line 7\n line 8\n"
            "@@ -10,7 +10,7 @@\n line 10\n line 11\n line 12\n-line 13\n+LINE 13\n line 14\n line 15\n line 16\n");
}

TEST_CASE("unified diff: the context size is a parameter", "[text]") {
  CHECK(unifiedDiff("a.txt", numbered(6), numbered(6, {2, 4}), 0).text ==
        header() + "@@ -2,1 +2,1 @@\n-line 2\n+LINE 2\n@@ -4,1 +4,1 @@\n-line 4\n+LINE 4\n");
  CHECK(unifiedDiff("a.txt", numbered(6), numbered(6, {2, 4}), 1).text ==
        header() + "@@ -1,5 +1,5 @@\n line 1\n-line 2\n+LINE 2\n line 3\n-line 4\n+LINE 4\n line 5\n");
}

TEST_CASE("unified diff: a carriage return stays part of its line", "[text]") {
  CHECK(unifiedDiff("a.txt", "a\r\nb\r\n", "a\r\nc\r\n").text == header() + "@@ -1,2 +1,2 @@\n a\r\n-b\r\n+c\r\n");
  // Only the "\r" differs: the lines differ.
  const auto diff = unifiedDiff("a.txt", "a\r\n", "a\n");
  CHECK(diff.text == header() + "@@ -1,1 +1,1 @@\n-a\r\n+a\n");
}

TEST_CASE("unified diff: repeated lines are aligned the way jsdiff aligns them", "[text]") {
  // Several minimal scripts exist here; jsdiff's greedy search picks this one.
  const auto diff = unifiedDiff("a.txt", "e\na\nb\nd\na\nb\na\r\n\na\r\ne\na\r\n", "e\nb\nd\na\nb\nx72\na\r\ne\na\r\n\n");
  CHECK(diff.text == header() +
                         "@@ -1,11 +1,10 @@\n e\n-a\n b\n d\n a\n b\n+x72\n a\r\n-\n-a\r\n e\n a\r\n+\n");
  CHECK(diff.additions == 2);
  CHECK(diff.deletions == 3);
}

TEST_CASE("unified diff: a large rewrite past the search bound still yields a correct diff", "[text]") {
  std::string before;
  std::string after;
  for (int i = 0; i < 20000; ++i) {
    before += "old " + std::to_string(i) + "\n";
    after += "new " + std::to_string(i) + "\n";
  }
  const auto diff = unifiedDiff("big.txt", before, after);
  CHECK(diff.additions == 20000);
  CHECK(diff.deletions == 20000);
  CHECK(diff.text.starts_with(header("big.txt") + "@@ -1,20000 +1,20000 @@\n-old 0\n-old 1\n"));
  CHECK(diff.text.ends_with("+new 19998\n+new 19999\n"));
}

TEST_CASE("unified diff: many scattered changes stay minimal", "[text]") {
  // 2,000 changed lines: past jsdiff's replay, within the bounded minimal search.
  std::string before;
  std::string after;
  for (int i = 0; i < 4000; ++i) {
    before += "line " + std::to_string(i) + "\n";
    after += (i % 4 == 1 ? "changed " : "line ") + std::to_string(i) + "\n";
  }
  const auto diff = unifiedDiff("a.txt", before, after);
  CHECK(diff.additions == 1000);
  CHECK(diff.deletions == 1000);
  CHECK(diff.text.starts_with(header() + "@@ -1,4000 +1,4000 @@\n line 0\n-line 1\n+changed 1\n line 2\n"));
}

TEST_CASE("diff indentation: the indentation common to all body lines is removed", "[text]") {
  const std::string diff = header() +
                           "@@ -1,5 +1,5 @@\n"
                           "     if (x) {\n"
                           "-        a();\n"
                           "+        b();\n"
                           "\n"
                           "      \n"
                           "     }\n";
  CHECK(trimDiffIndentation(diff) == header() +
                                         "@@ -1,5 +1,5 @@\n"
                                         " if (x) {\n"
                                         "-    a();\n"
                                         "+    b();\n"
                                         "\n"
                                         "  \n"
                                         " }\n");
}

TEST_CASE("diff indentation: tabs count as characters, and one unindented line stops it", "[text]") {
  const std::string tabs = header() + "@@ -1,2 +1,2 @@\n-\t\tx\n+\t\ty\n \tz\n\\ No newline at end of file\n";
  CHECK(trimDiffIndentation(tabs) == header() + "@@ -1,2 +1,2 @@\n-\tx\n+\ty\n z\n\\ No newline at end of file\n");

  const std::string flush = header() + "@@ -1,2 +1,2 @@\n-  x\n+  y\n z\n";
  CHECK(trimDiffIndentation(flush) == flush);
  CHECK(trimDiffIndentation(header()) == header());
  CHECK(trimDiffIndentation("") == "");
}

TEST_CASE("diff indentation: hunk lines are told apart by the hunk header counts", "[text]") {
  // The "---"/"+++" headers are never body lines, even when the path starts with spaces…
  CHECK(trimDiffIndentation(header("  x") + "@@ -1,1 +1,1 @@\n-    a\n+    b") ==
        header("  x") + "@@ -1,1 +1,1 @@\n-a\n+b");
  // …and a removed line starting with "--" is one (unindented, so nothing is trimmed).
  const std::string dashes = header() + "@@ -2,2 +2,1 @@\n---sql\n   keep\n";
  CHECK(trimDiffIndentation(dashes) == dashes);
  // Several hunks.
  CHECK(trimDiffIndentation(header() + "@@ -1,1 +1,1 @@\n-  a\n+  b\n@@ -9,1 +9,1 @@\n-  c\n+    d\n") ==
        header() + "@@ -1,1 +1,1 @@\n-a\n+b\n@@ -9,1 +9,1 @@\n-c\n+  d\n");
}
