// The engine against ripgrep on the same tree: for each query, the set of (file, line) matches
// toold's walker and searcher report must be exactly what `rg --hidden -n` reports, and the
// files a glob selects exactly what `rg --hidden --files` lists and rg's glob selects. The tree is a git repository
// (ripgrep honours .gitignore only inside one) with nested ignore files, hidden files, a binary
// file, CRLF lines, a missing final newline, invalid UTF-8 and a long line. Skipped, with a
// warning, where rg or git is not installed.
#include "builtins/search/search_paths.h"
#include "builtins/search/searcher.h"
#include "core/walk/walker.h"

#include "tests/support/temp_dir.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <mutex>
#include <optional>
#include <set>

namespace fs = std::filesystem;
using namespace toold::builtins;
using toold::core::walkTree;
using toold::core::WalkDecision;
using toold::core::WalkEntry;
using toold::testing::TempDir;

namespace {

// "path:line", so a difference prints readably.
using Matches = std::set<std::string>;

bool have(const char* program) { return std::system((std::string("command -v ") + program + " >/dev/null 2>&1").c_str()) == 0; }

void put(const fs::path& root, const std::string& relative, const std::string& content) {
  fs::create_directories((root / relative).parent_path());
  std::ofstream(root / relative, std::ios::binary) << content;
}

std::string shellQuote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::vector<std::string> runLines(const std::string& command) {
  std::vector<std::string> lines;
  FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string line;
  for (int c; (c = std::fgetc(pipe)) != EOF;) {
    if (c == '\n') {
      lines.push_back(line);
      line.clear();
    } else {
      line.push_back(static_cast<char>(c));
    }
  }
  if (!line.empty()) lines.push_back(line);
  ::pclose(pipe);
  return lines;
}

std::string stripDotSlash(std::string path) { return path.starts_with("./") ? path.substr(2) : path; }

std::set<std::string> ripgrepFiles(const fs::path& root, const std::string& glob, bool noIgnore = false);

// ripgrep's -g is an override: a positive glob re-includes files .gitignore excludes (a known
// complaint). toold's filter never does, so rg's answer is taken without -g and narrowed to the
// files the glob selects by rg's own glob semantics (rg --files --no-ignore -g).
Matches ripgrep(const fs::path& root, const std::string& pattern, const std::string& glob) {
  std::string command = "cd " + shellQuote(root.string()) +
                        " && rg --hidden -n --no-heading --with-filename --color never -g '!.git'";
  command += " -e " + shellQuote(pattern) + " . 2>/dev/null";
  std::set<std::string> selected;
  if (!glob.empty()) selected = ripgrepFiles(root, glob, true);
  Matches matches;
  for (const auto& line : runLines(command)) {
    const auto first = line.find(':');
    const auto second = line.find(':', first + 1);
    REQUIRE(second != std::string::npos);
    const std::string file = stripDotSlash(line.substr(0, first));
    if (!glob.empty() && !selected.contains(file)) continue;
    matches.insert(file + ":" + line.substr(first + 1, second - first - 1));
  }
  return matches;
}

class Collect final : public SearchSink {
public:
  Collect(Matches& matches, std::mutex& mutex, std::string relative) : matches_(matches), mutex_(mutex), relative_(std::move(relative)) {}
  bool matched(std::uint64_t lineNumber, std::string_view) override {
    std::lock_guard lock(mutex_);
    matches_.insert(relative_ + ":" + std::to_string(lineNumber));
    return true;
  }

private:
  Matches& matches_;
  std::mutex& mutex_;
  std::string relative_;
};

Matches tooldMatches(const fs::path& root, const std::string& pattern, const std::string& glob) {
  auto compiled = SearchPattern::compile(pattern);
  REQUIRE(std::holds_alternative<SearchPattern>(compiled));
  const auto& searchPattern = std::get<SearchPattern>(compiled);
  std::optional<PathFilter> filter;
  if (!glob.empty()) filter = std::get<PathFilter>(PathFilter::compile(glob, root));
  Matches matches;
  std::mutex mutex;
  walkTree(
      root, searchWalkOptions(),
      [&] {
        auto searcher = std::make_shared<FileSearcher>(searchPattern);
        return [&, searcher](const WalkEntry& entry) {
          if (entry.isFile && (!filter || filter->matches(entry))) {
            Collect sink(matches, mutex, entry.relative);
            searcher->search(entry.path, &sink, {});
          }
          return WalkDecision::Continue;
        };
      },
      {});
  return matches;
}

std::set<std::string> ripgrepFiles(const fs::path& root, const std::string& glob, bool noIgnore) {
  const std::string listing = "cd " + shellQuote(root.string()) + " && rg --hidden --files -g '!.git'";
  std::set<std::string> files;
  for (const auto& line : runLines(listing + " --no-ignore -g " + shellQuote(glob) + " 2>/dev/null"))
    files.insert(stripDotSlash(line));
  if (noIgnore) return files;
  // The files rg does not ignore, narrowed to those the glob selects (see ripgrep() above).
  std::set<std::string> kept;
  for (const auto& line : runLines(listing + " 2>/dev/null"))
    if (files.contains(stripDotSlash(line))) kept.insert(stripDotSlash(line));
  return kept;
}

std::set<std::string> tooldFiles(const fs::path& root, const std::string& glob) {
  auto filter = std::get<PathFilter>(PathFilter::compile(glob, root));
  std::set<std::string> files;
  std::mutex mutex;
  walkTree(
      root, searchWalkOptions(),
      [&] {
        return [&](const WalkEntry& entry) {
          if (entry.isFile && filter.matches(entry)) {
            std::lock_guard lock(mutex);
            files.insert(entry.relative);
          }
          return WalkDecision::Continue;
        };
      },
      {});
  return files;
}

void buildTree(const fs::path& root) {
  REQUIRE(std::system(("git init -q " + shellQuote(root.string())).c_str()) == 0);
  put(root, ".gitignore", "*.log\n/build/\n!keep.log\nnode_modules/\n# a comment\n\\#literal.txt\n");
  put(root, "src/.gitignore", "generated/\n*.tmp\n");
  put(root, "src/.ignore", "!wanted.tmp\n");
  put(root, "src/main.c", "int main(void) {\n  return helper(1);\n}\n");
  put(root, "src/helper.c", "int helper(int x) {\n  return x + 1; // helper\n}\n");
  put(root, "src/generated/gen.c", "int helper_generated;\n");
  put(root, "src/scratch.tmp", "helper in a temp file\n");
  put(root, "src/wanted.tmp", "helper that .ignore re-includes\n");
  put(root, "build/out.c", "helper built\n");
  put(root, "docs/build/page.md", "helper in a nested build folder (not anchored away)\n");
  put(root, "debug.log", "helper logged\n");
  put(root, "keep.log", "helper kept\n");
  put(root, "#literal.txt", "helper with a hash name\n");
  put(root, "node_modules/dep/index.js", "helper dependency\n");
  put(root, ".config/settings.json", "{\"helper\": true}\n");
  put(root, "dos.txt", "Helper one\r\nhelper two\r\nend\r\n");
  put(root, "nonl.txt", "first\nlast helper");
  put(root, "latin1.txt", "caf\xe9 helper\nna\xefve\n");
  put(root, "binary.dat", std::string("helper\0binary", 13));
  put(root, "long.txt", std::string(100000, 'x') + " helper\nshort\n");
  put(root, "empty.txt", "");
}

} // namespace

TEST_CASE("search vs ripgrep: the same files and lines for every query", "[search][ripgrep]") {
  if (!have("rg") || !have("git")) {
    WARN("rg or git is not installed: the comparison with ripgrep is skipped");
    return;
  }
  TempDir dir("search_vs_rg");
  buildTree(dir.path());
  const std::vector<std::pair<std::string, std::string>> queries = {
      {"helper", ""},
      {"(?i)helper", ""},
      {"helper|main|first", ""},
      {"^int ", ""},
      {"helper$", ""},
      {"x \\+ 1", ""},
      {"caf.", ""},
      {"not present anywhere", ""},
      {"\\bhelper\\(", "*.c"},
      {"helper", "src/**"},
      {"helper", "*.{txt,md}"},
  };
  for (const auto& [pattern, glob] : queries) {
    INFO("pattern " << pattern << (glob.empty() ? "" : " glob " + glob));
    const auto expected = ripgrep(dir.path(), pattern, glob);
    const auto actual = tooldMatches(dir.path(), pattern, glob);
    CHECK(actual == expected);
  }
}

TEST_CASE("search vs ripgrep: a glob selects the files rg --files -g lists", "[search][ripgrep]") {
  if (!have("rg") || !have("git")) {
    WARN("rg or git is not installed: the comparison with ripgrep is skipped");
    return;
  }
  TempDir dir("glob_vs_rg");
  buildTree(dir.path());
  for (const std::string glob : {"*.c", "*.{c,txt}", "src/**/*.c", "**/*.md", "*.tmp", "src/*", "?ong.txt", "[dk]*.log", ".config/*"}) {
    INFO("glob " << glob);
    CHECK(tooldFiles(dir.path(), glob) == ripgrepFiles(dir.path(), glob));
  }
}
