#include "core/walk/glob_pattern.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

using toold::core::GlobPattern;

namespace {

GlobPattern compiled(std::string_view glob, bool caseInsensitive = false) {
  auto result = GlobPattern::compile(glob, caseInsensitive);
  if (auto* error = std::get_if<std::string>(&result)) FAIL("'" << glob << "' does not compile: " << *error);
  return std::get<GlobPattern>(std::move(result));
}

std::string compileError(std::string_view glob) {
  auto result = GlobPattern::compile(glob);
  if (auto* error = std::get_if<std::string>(&result)) return *error;
  return "(compiled)";
}

struct Case {
  const char* glob;
  const char* path;
  bool matches;
};

void checkTable(const std::vector<Case>& cases, bool caseInsensitive = false) {
  for (const auto& c : cases) {
    INFO("glob '" << c.glob << "' against '" << c.path << "'");
    CHECK(compiled(c.glob, caseInsensitive).matches(c.path) == c.matches);
  }
}

} // namespace

TEST_CASE("glob: literals match whole paths only", "[glob]") {
  checkTable({
      {"main.cpp", "main.cpp", true},
      {"main.cpp", "main.cppx", false},
      {"main.cpp", "src/main.cpp", false}, // always anchored: the caller picks the name for slash-less globs
      {"src/main.cpp", "src/main.cpp", true},
      {"src/main.cpp", "src/main.h", false},
      {"", "", true},
      {"", "a", false},
      {"Main.cpp", "main.cpp", false},
  });
  CHECK(compiled("src/*.ts").glob() == "src/*.ts");
}

TEST_CASE("glob: * and ? stay within one path component", "[glob]") {
  checkTable({
      {"*", "", true},
      {"*", "file", true},
      {"*", "a/b", false},
      {"*.ts", "index.ts", true},
      {"*.ts", ".ts", true},
      {"*.ts", "src/index.ts", false},
      {"src/*", "src/a", true},
      {"src/*", "src/a/b", false},
      {"src/*", "src", false},
      {"*/b", "a/b", true},
      {"*/b", "a/c/b", false},
      {"a*b*c", "aXXbYYc", true},
      {"a*b*c", "aXXbYY", false},
      {"a*a*a", "aaaa", true},
      {"a*a*a", "aa", false},
      {"*x", "x/x", false},
      {"a?c", "abc", true},
      {"a?c", "ac", false},
      {"a?c", "abbc", false},
      {"a?c", "a/c", false},
      {"???", "abc", true},
      {"a?c", "a\xC3\xA9" "c", true},  // ? takes a whole UTF-8 character (é)
      {"??", "\xC3\xA9", false},
      {"*?", "\xC3\xA9", true},
      {"\xC3\xA9*", "\xC3\xA9t\xC3\xA9", true},
  });
}

TEST_CASE("glob: character classes", "[glob]") {
  checkTable({
      {"[abc].txt", "a.txt", true},
      {"[abc].txt", "d.txt", false},
      {"[a-z]1", "q1", true},
      {"[a-z]1", "Q1", false},
      {"[a-cx-z]", "y", true},
      {"[a-cx-z]", "d", false},
      {"[!a]", "b", true},
      {"[!a]", "a", false},
      {"[^a]", "b", true},
      {"[^a]", "a", false},
      {"[!a]", "", false},
      {"[]]", "]", true},         // a ']' first in the class is a member
      {"[]]", "a", false},
      {"[!]]", "a", true},
      {"[!]]", "]", false},
      {"[]a]", "a", true},
      {"[a-]", "-", true},        // '-' last is literal
      {"[-a]", "-", true},        // and first
      {"[z-a]", "m", false},      // a reversed range matches nothing
      {"[\\]]", "]", true},       // escapes work inside classes
      {"[\\!]", "!", true},
      {"[[]", "[", true},
      {"[?*]", "*", true},
      {"[?*]", "x", false},
      {"a[/]b", "a/b", false},    // never '/'
      {"a[!x]b", "a/b", false},
      {"[[:digit:]]x", "7x", true},
      {"[[:digit:]]x", "ax", false},
      {"[[:alpha:][:digit:]_]", "_", true},
      {"[![:space:]]", " ", false},
      {"[\xC3\xA9\xC3\xA8]", "\xC3\xA8", true}, // members are whole UTF-8 characters
      {"[a-\xC3\xBF]", "\xC3\xA9", true},
  });
}

TEST_CASE("glob: braces expand to alternatives, nested too", "[glob]") {
  checkTable({
      {"*.{ts,tsx}", "a.ts", true},
      {"*.{ts,tsx}", "a.tsx", true},
      {"*.{ts,tsx}", "a.js", false},
      {"{a,{b,c}}", "a", true},
      {"{a,{b,c}}", "b", true},
      {"{a,{b,c}}", "c", true},
      {"{a,{b,c}}", "d", false},
      {"x{a,b}y{1,2}", "xby2", true},
      {"x{a,b}y{1,2}", "xby3", false},
      {"{src,lib}/**/*.c", "lib/deep/er/x.c", true},
      {"{src/a,b}.c", "src/a.c", true},  // alternatives may hold a '/'
      {"{**/x,y}", "a/b/x", true},       // and `**` still counts as a component inside them
      {"a{,.bak}", "a", true},
      {"a{,.bak}", "a.bak", true},
      {"{a}", "{a}", true},              // no comma: literal braces
      {"{a}", "a", false},
      {"{}", "{}", true},
      {"a}b", "a}b", true},              // a lone '}' is literal
      {"a,b", "a,b", true},              // and a ',' outside braces
      {"{[,]x,y}", ",x", true},          // a ',' in a class does not split
      {"\\{a,b\\}", "{a,b}", true},
  });
}

TEST_CASE("glob: backslash escapes", "[glob]") {
  checkTable({
      {"\\*", "*", true},
      {"\\*", "a", false},
      {"\\?", "?", true},
      {"\\?", "a", false},
      {"\\[a]", "[a]", true},
      {"\\\\", "\\", true},
      {"\\a", "a", true},
      {"\\#x", "#x", true},
      {"a\\ ", "a ", true},
      {"\\*\\*/x", "**/x", true},        // escaped stars are not a `**`
      {"\\*\\*/x", "a/x", false},
  });
}

TEST_CASE("glob: ** as a whole component spans folders, elsewhere it is *", "[glob]") {
  checkTable({
      {"**", "", true},
      {"**", "a", true},
      {"**", "a/b/c", true},
      {"**/x", "x", true},               // leading: also at the top level
      {"**/x", "a/x", true},
      {"**/x", "a/b/x", true},
      {"**/x", "a/bx", false},
      {"**/x", "x/a", false},
      {"**/foo/bar", "a/foo/bar", true},
      {"**/foo/bar", "foo/bar", true},
      {"**/foo/bar", "foo/a/bar", false},
      {"x/**", "x/a", true},             // trailing: everything inside
      {"x/**", "x/a/b/c", true},
      {"x/**", "x", false},              // but not x itself
      {"x/**", "y/a", false},
      {"a/**/b", "a/b", true},           // middle: zero or more folders
      {"a/**/b", "a/x/b", true},
      {"a/**/b", "a/x/y/b", true},
      {"a/**/b", "a/xb", false},
      {"a/**/b", "a/x/y/bc", false},
      {"a/**/b", "ab", false},
      {"a/**/**/b", "a/b", true},
      {"a/**/b/**/c", "a/1/b/2/b/3/c", true},
      {"a/**/b/**/c", "a/b/c", true},
      {"a/**/b/**/c", "a/c/b", false},
      {"**/*.md", "docs/x/readme.md", true},
      {"**/*.md", "readme.md", true},
      {"**/*.md", "readme.mdx", false},
      {"**/**", "a/b", true},
      {"a**b", "axyb", true},            // not a whole component: a plain *
      {"a**b", "ax/yb", false},
      {"**x", "ax", true},
      {"**x", "a/x", false},
      {"x**/y", "xa/y", true},
      {"x**/y", "xa/b/y", false},
      {"***/x", "a/x", true},            // three stars are a plain *
      {"***/x", "a/b/x", false},
  });
}

TEST_CASE("glob: case-insensitive matching folds ASCII", "[glob]") {
  checkTable(
      {
          {"*.TS", "index.ts", true},
          {"readme.md", "README.MD", true},
          {"[a-c]x", "BX", true},
          {"[A-C]x", "bX", true},
          {"[!a]", "A", false},
          {"{Foo,bar}/**", "FOO/x", true},
          {"\xC3\xA9", "\xC3\x89", false}, // é and É: only ASCII folds
      },
      true);
  CHECK_FALSE(compiled("*.TS").matches("index.ts"));
}

TEST_CASE("glob: malformed globs are refused with the reason", "[glob]") {
  CHECK(compileError("abc[de") == "unclosed '[' at offset 3");
  CHECK(compileError("[") == "unclosed '[' at offset 0");
  CHECK(compileError("[]") == "unclosed '[' at offset 0");  // ']' right after '[' is a member
  CHECK(compileError("[!]") == "unclosed '[' at offset 0");
  CHECK(compileError("a{b,c") == "unclosed '{' at offset 1");
  CHECK(compileError("{a,{b,c}") == "unclosed '{' at offset 0");
  CHECK(compileError("abc\\") == "a trailing '\\' escapes nothing");
  CHECK(compileError("[[:nope:]]") == "unknown character class '[:nope:]' at offset 1");
  CHECK(compileError("{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p}") == "(compiled)"); // 256 alternatives
  CHECK(compileError("{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p}{q,r}") ==
        "the braces expand to more than 256 alternatives");
  CHECK(compileError("\\[") == "(compiled)");
  CHECK(compileError("]") == "(compiled)");
  CHECK(compileError("}") == "(compiled)");
}

TEST_CASE("glob: a compiled glob is a value, shared across copies", "[glob]") {
  const GlobPattern original = compiled("**/*.{c,h}");
  const GlobPattern copy = original; // NOLINT(performance-unnecessary-copy-initialization)
  CHECK(copy.matches("src/x.h"));
  CHECK(original.matches("x.c"));
  CHECK_FALSE(copy.matches("x.cc"));
  CHECK(copy.glob() == "**/*.{c,h}");
}

TEST_CASE("glob: one compiled glob matches from several threads at once", "[glob]") {
  const GlobPattern glob = compiled("src/**/{a,b}[0-9]*.c");
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 2000; ++i) {
        if (!glob.matches("src/x/y/a7z.c")) ++wrong;
        if (glob.matches("src/x/y/c7z.c")) ++wrong;
      }
    });
  for (auto& thread : threads) thread.join();
  CHECK(wrong == 0);
}
