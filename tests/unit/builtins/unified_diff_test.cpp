#include "builtins/text/unified_diff.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <sstream>
#include <string>
#include <vector>

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

// The lines of `text`, each with its '\n' (the last without, when the text does not end in one).
std::vector<std::string> linesOf(const std::string& text) {
  std::vector<std::string> lines;
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t newline = text.find('\n', start);
    const std::size_t end = newline == std::string::npos ? text.size() : newline + 1;
    lines.push_back(text.substr(start, end - start));
    start = end;
  }
  return lines;
}

// Applies a diff in unifiedDiff's layout to `before`, the way patch(1) would, checking every
// context and removed line against `before` and the hunk headers' counts; "" with a failed CHECK
// when the diff does not apply. Counts the body's added and removed lines.
std::string applyDiff(const std::string& before, const std::string& diff, int& added, int& removed) {
  const std::vector<std::string> old = linesOf(before);
  std::vector<std::string> rows;
  std::stringstream in(diff);
  for (std::string row; std::getline(in, row);) rows.push_back(row);
  std::string out;
  std::size_t next = 0; // the next line of `old` to copy
  added = removed = 0;
  for (std::size_t r = 4; r < rows.size();) {
    std::size_t oldStart = 0, oldCount = 0, newStart = 0, newCount = 0;
    REQUIRE(std::sscanf(rows[r].c_str(), "@@ -%zu,%zu +%zu,%zu @@", &oldStart, &oldCount, &newStart, &newCount) == 4);
    ++r;
    const std::size_t first = oldCount == 0 ? oldStart : oldStart - 1; // an empty side names the line before
    REQUIRE(first >= next);
    REQUIRE(first <= old.size());
    while (next < first) out += old[next++];
    std::size_t oldSeen = 0, newSeen = 0;
    while (r < rows.size() && !rows[r].starts_with("@@")) {
      const char marker = rows[r][0];
      std::string line = rows[r].substr(1) + "\n";
      if (r + 1 < rows.size() && rows[r + 1].starts_with("\\")) {
        line.pop_back();
        ++r;
      }
      ++r;
      if (marker != '+') {
        REQUIRE(next < old.size());
        REQUIRE(old[next] == line);
        ++next;
        ++oldSeen;
      }
      if (marker != '-') {
        out += line;
        ++newSeen;
      }
      if (marker == '+') ++added;
      if (marker == '-') ++removed;
    }
    CHECK(oldSeen == oldCount);
    CHECK(newSeen == newCount);
  }
  while (next < old.size()) out += old[next++];
  return out;
}

// Checks that the diff of `before` → `after` turns one into the other, with the counts it claims.
void checkApplies(const std::string& before, const std::string& after) {
  const auto diff = unifiedDiff("a.txt", before, after);
  REQUIRE(diff.text.starts_with(header()));
  int added = 0;
  int removed = 0;
  CHECK(applyDiff(before, diff.text, added, removed) == after);
  CHECK(diff.additions == added);
  CHECK(diff.deletions == removed);
}

// `count` lines drawn from `alphabet` distinct ones, sometimes without a final newline.
std::string randomText(std::mt19937& random, int count, int alphabet) {
  std::string text;
  for (int i = 0; i < count; ++i) text += "l" + std::to_string(random() % static_cast<unsigned>(alphabet)) + "\n";
  if (!text.empty() && random() % 4 == 0) text.pop_back();
  return text;
}

// `text` with about `edits` random lines removed, inserted or replaced.
std::string mutated(std::mt19937& random, const std::string& text, int edits, int alphabet) {
  std::vector<std::string> lines = linesOf(text);
  for (int e = 0; e < edits; ++e) {
    const std::size_t at = lines.empty() ? 0 : random() % (lines.size() + 1);
    const std::string fresh = "l" + std::to_string(random() % static_cast<unsigned>(alphabet)) + "\n";
    switch (random() % 3) {
    case 0: if (at < lines.size()) lines.erase(lines.begin() + static_cast<long>(at)); break;
    case 1: lines.insert(lines.begin() + static_cast<long>(at), fresh); break;
    default: if (at < lines.size()) lines[at] = fresh; break;
    }
  }
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string line = lines[i];
    if (i + 1 < lines.size() && !line.ends_with('\n')) line += '\n'; // only the last may lack one
    out += line;
  }
  return out;
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

TEST_CASE("unified diff: lines cut at the end, and a file grown from a prefix of itself", "[text]") {
  const auto cut = unifiedDiff("a.txt", "a\nb\nc\nd\ne\n", "a\nb\n");
  CHECK(cut.text == header() + "@@ -1,5 +1,2 @@\n a\n b\n-c\n-d\n-e\n");
  CHECK(cut.deletions == 3);
  const auto grown = unifiedDiff("a.txt", numbered(2), numbered(40));
  CHECK(grown.additions == 38);
  CHECK(grown.deletions == 0);
  CHECK(grown.text.starts_with(header() + "@@ -1,2 +1,40 @@\n line 1\n line 2\n+line 3\n"));
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

TEST_CASE("unified diff: applying the diff to the old text gives the new one (small random edits)", "[text]") {
  std::mt19937 random(20261206);
  for (int round = 0; round < 400; ++round) {
    const int alphabet = 2 + round % 12; // few distinct lines: many ways to pair them up
    const std::string before = randomText(random, static_cast<int>(random() % 40), alphabet);
    const std::string after = round % 5 == 0 ? randomText(random, static_cast<int>(random() % 40), alphabet)
                                             : mutated(random, before, 1 + round % 8, alphabet);
    INFO("round " << round);
    checkApplies(before, after);
  }
}

TEST_CASE("unified diff: applying the diff gives the new text past every search bound", "[text]") {
  std::mt19937 random(7);
  // Past jsdiff's replay (1,000 edits), past the minimal search (2,000) and its step budget: with
  // few distinct lines (no anchors), with distinct lines reordered (anchors), and mixed.
  for (const int alphabet : {3, 40, 1000000}) {
    for (const int edits : {1500, 3000, 12000}) {
      const std::string before = randomText(random, 6000, alphabet);
      const std::string after = mutated(random, before, edits, alphabet);
      INFO("alphabet " << alphabet << ", edits " << edits);
      checkApplies(before, after);
    }
  }
  std::string before;
  std::string after;
  for (int i = 0; i < 8000; ++i) before += "line " + std::to_string(i) + "\n";
  for (int i = 0; i < 8000; ++i) after += "line " + std::to_string((i * 7919) % 8000) + "\n"; // shuffled
  checkApplies(before, after);
  checkApplies(after, before);
  checkApplies("", before);
  checkApplies(before, "");
}

TEST_CASE("unified diff: a rewrite past the minimal search keeps the distinct lines it did not touch", "[text]") {
  // 15,000 of 30,000 lines changed: far past the minimal search, yet patience anchors on the
  // unchanged lines find the minimal script, not one that replaces the whole file.
  std::string before;
  std::string after;
  for (int i = 0; i < 30000; ++i) {
    before += "line " + std::to_string(i) + "\n";
    after += (i % 2 == 1 ? "changed " : "line ") + std::to_string(i) + "\n";
  }
  const auto diff = unifiedDiff("a.txt", before, after);
  CHECK(diff.additions == 15000);
  CHECK(diff.deletions == 15000);
  CHECK(diff.text.starts_with(header() + "@@ -1,30000 +1,30000 @@\n line 0\n-line 1\n+changed 1\n line 2\n"));
}

TEST_CASE("unified diff: a block moved far away shows as removed and added, the rest as context", "[text]") {
  std::string head;
  std::string block;
  std::string tail;
  for (int i = 0; i < 3000; ++i) block += "moved " + std::to_string(i) + "\n";
  for (int i = 0; i < 4000; ++i) head += "head " + std::to_string(i) + "\n";
  for (int i = 0; i < 4000; ++i) tail += "tail " + std::to_string(i) + "\n";
  const auto diff = unifiedDiff("a.txt", block + head + tail, head + tail + block);
  CHECK(diff.additions == 3000);
  CHECK(diff.deletions == 3000);
  int added = 0;
  int removed = 0;
  CHECK(applyDiff(block + head + tail, diff.text, added, removed) == head + tail + block);
}

TEST_CASE("unified diff: stretches rewritten whole leave the search budget to the others", "[text]") {
  // Five stretches of 1,100 lines each rewritten whole, between lines found once on each side:
  // no script for them is within the minimal search's bound, and they are marked changed whole
  // without being searched, so the step budget is still there for the last stretch, which needs
  // a search (its lines repeat) and finds "dup" unchanged between the two changes.
  std::string before;
  std::string after;
  for (int stretch = 0; stretch < 5; ++stretch) {
    for (int i = 0; i < 1100; ++i) {
      before += "old " + std::to_string(stretch) + " " + std::to_string(i) + "\n";
      after += "new " + std::to_string(stretch) + " " + std::to_string(i) + "\n";
    }
    before += "anchor " + std::to_string(stretch) + "\n";
    after += "anchor " + std::to_string(stretch) + "\n";
  }
  before += "dup\np\ndup\nq\ndup\n";
  after += "dup\nr\ndup\ns\ndup\n";
  const auto diff = unifiedDiff("a.txt", before, after);
  CHECK(diff.text.ends_with("anchor 4\n dup\n-p\n+r\n dup\n-q\n+s\n dup\n"));
  CHECK(diff.additions == 5 * 1100 + 2);
  CHECK(diff.deletions == 5 * 1100 + 2);
  int added = 0;
  int removed = 0;
  CHECK(applyDiff(before, diff.text, added, removed) == after);
}
