#include "builtins/text/unified_diff.h"

#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

using toold::builtins::boundedDiff;
using toold::builtins::shownDiff;
using toold::builtins::trimDiffIndentation;
using toold::builtins::unifiedDiff;

namespace {

// What shownDiff stands for: the whole diff, trimmed, then cut.
std::string chained(const std::string& path, const std::string& before, const std::string& after, std::size_t maxBytes) {
  return boundedDiff(trimDiffIndentation(unifiedDiff(path, before, after).text), maxBytes);
}

// Lines of code-like text with every kind of indentation trimming meets: spaces, tabs, blank
// lines, lines of whitespace alone, a carriage return, and sometimes no final newline.
std::string indentedText(std::mt19937& random, int count) {
  static const std::vector<std::string> indents = {"", " ", "  ", "    ", "\t", "\t\t", "  \t", "        "};
  static const std::vector<std::string> bodies = {"a();", "b = 1;", "}", "if (x) {", "", "   ", "\t", "c\r", "-- x", "+ y"};
  std::string text;
  for (int i = 0; i < count; ++i)
    text += indents[random() % indents.size()] + bodies[random() % bodies.size()] + std::to_string(random() % 5) + "\n";
  if (!text.empty() && random() % 4 == 0) text.pop_back();
  return text;
}

// The same lines, each indented by `extra`, with about `edits` of them replaced.
std::string reindented(std::mt19937& random, const std::string& text, const std::string& extra, int edits) {
  std::vector<std::string> lines;
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t newline = text.find('\n', start);
    const std::size_t end = newline == std::string::npos ? text.size() : newline + 1;
    lines.push_back(extra + text.substr(start, end - start));
    start = end;
  }
  for (int e = 0; e < edits && !lines.empty(); ++e) lines[random() % lines.size()] = extra + "changed();\n";
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (i + 1 < lines.size() && !lines[i].ends_with('\n')) lines[i] += '\n';
    out += lines[i];
  }
  return out;
}

} // namespace

TEST_CASE("shown diff: the whole diff trimmed and cut, written straight to its size", "[text]") {
  std::mt19937 random(20261207);
  const std::vector<std::size_t> limits = {0, 1, 2, 40, 100, 101, 257, 1000, 8192};
  const std::vector<std::string> paths = {"a.txt", "  spaced/path.c", "-- odd", "@@ -1 +1 @@", "x\n@@ -1,1 +1,1 @@\n-y"};
  for (int round = 0; round < 400; ++round) {
    const std::string before = indentedText(random, static_cast<int>(random() % 40));
    const std::string extra = round % 3 == 0 ? "" : round % 3 == 1 ? "    " : "\t";
    const std::string after = reindented(random, before, extra, static_cast<int>(random() % 6));
    const std::string& path = paths[random() % paths.size()];
    const std::size_t limit = limits[random() % limits.size()];
    const auto shown = shownDiff(path, before, after, limit);
    INFO("round " << round << ", limit " << limit << ", path \"" << path << "\"");
    CHECK(shown.text == chained(path, before, after, limit));
    const auto full = unifiedDiff(path, before, after);
    CHECK(shown.additions == full.additions);
    CHECK(shown.deletions == full.deletions);
  }
}

TEST_CASE("shown diff: identical texts show the header alone", "[text]") {
  CHECK(shownDiff("a.txt", "x\n", "x\n").text == chained("a.txt", "x\n", "x\n", 8192));
  CHECK(shownDiff("a.txt", "", "").text == chained("a.txt", "", "", 8192));
  CHECK(shownDiff("a.txt", "x\n", "x\n", 10).text == chained("a.txt", "x\n", "x\n", 10));
}

TEST_CASE("shown diff: a file rewritten whole is cut at 8 KiB with the lines left out counted", "[text]") {
  std::string before;
  std::string after;
  for (int i = 0; i < 10000; ++i) {
    before += "    alpha_" + std::to_string(i) + " = transform(records[" + std::to_string(i) + "])\n";
    after += "    omega_" + std::to_string(i) + " = transform(records[" + std::to_string(i) + "])\n";
  }
  const auto shown = shownDiff("big.py", before, after);
  CHECK(shown.text == chained("big.py", before, after, 8192));
  CHECK(shown.text.size() <= 8192 + 64);
  CHECK(shown.text.find("\n-alpha_0 = transform(records[0])\n") != std::string::npos); // trimmed
  CHECK(shown.text.ends_with(" more lines)"));
  CHECK(shown.additions == 10000);
  CHECK(shown.deletions == 10000);
}
