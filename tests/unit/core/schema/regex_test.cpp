// Regex: ECMA-262 behaviour where PCRE2 can give it, refusals at compile time, and searches that
// answer in bounded time on long strings and on patterns that backtrack badly.
#include "core/schema/regex.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

using toold::core::Regex;
using toold::core::RegexError;
using Result = Regex::Result;

namespace Catch {
template <>
struct StringMaker<Result> {
  static std::string convert(Result result) {
    switch (result) {
      case Result::Match:
        return "Match";
      case Result::NoMatch:
        return "NoMatch";
      case Result::TooCostly:
        return "TooCostly";
      case Result::InvalidUtf8:
        return "InvalidUtf8";
    }
    return "?";
  }
};
}  // namespace Catch

namespace {

Result search(const char* pattern, const std::string& subject) { return Regex(pattern).search(subject); }

/// The RegexError message compiling `pattern` gives, or "(compiled)".
std::string refusal(const char* pattern) {
  try {
    Regex regex(pattern);
  } catch (const RegexError& error) {
    return error.what();
  }
  return "(compiled)";
}

/// Long enough for a search of a few million steps, short enough to show none went unbounded.
constexpr auto kPrompt = std::chrono::seconds(5);

}  // namespace

TEST_CASE("a search finds the pattern anywhere unless the pattern anchors itself", "[regex]") {
  CHECK(search("b", "abc") == Result::Match);
  CHECK(search("^b", "abc") == Result::NoMatch);
  CHECK(search("c$", "abc") == Result::Match);
  CHECK(search("", "") == Result::Match);
  CHECK(search("x", "") == Result::NoMatch);
  CHECK(search("(?<=a)b", "ab") == Result::Match);  // a lookbehind still sees what comes before
  CHECK(search("(?m)^b", "a\nb") == Result::Match);
  CHECK(Regex("^a+$").pattern() == "^a+$");
}

TEST_CASE("patterns follow ECMA-262 where PCRE2 has an option for it", "[regex]") {
  CHECK(search("^.$", "é") == Result::Match);  // code points, not bytes
  CHECK(search("\\d", "١") == Result::NoMatch);  // \d and \w are ASCII
  CHECK(search("\\w", "é") == Result::NoMatch);
  CHECK(search("\\bé", "é") == Result::NoMatch);
  CHECK(search("^\\u00e9$", "é") == Result::Match);
  CHECK(search("^\\u{1F600}$", "\U0001F600") == Result::Match);
  CHECK(search("^\\x41$", "A") == Result::Match);
  CHECK(search("^a$", "a\n") == Result::NoMatch);  // "$" only at the very end
  CHECK(search("a.b", "a\nb") == Result::NoMatch);
  CHECK(search("a.b", "a\rb") == Result::NoMatch);
  CHECK(search("a.b", "a\u2028b") == Result::NoMatch);
  CHECK(search("a.b", "a\u00a0b") == Result::Match);
  CHECK(search("[^]", "\n") == Result::Match);
  CHECK(search("[]", "abc") == Result::NoMatch);
  CHECK(search("^\\1(a)$", "a") == Result::Match);  // a back-reference to an unset group matches ""
}

TEST_CASE("back-references are allowed", "[regex]") {
  CHECK(search("^(a|b)\\1$", "bb") == Result::Match);
  CHECK(search("^(a|b)\\1$", "ab") == Result::NoMatch);
  CHECK(search("^(?<x>[a-z])\\k<x>$", "zz") == Result::Match);
}

TEST_CASE("patterns PCRE2 cannot compile are refused with what and where", "[regex]") {
  CHECK(refusal("(unclosed") == "missing closing parenthesis at offset 9");
  CHECK_THAT(refusal("a{2,1}"), Catch::Contains("out of order"));
  CHECK_THAT(refusal("(?<=a+)b"), Catch::Contains("lookbehind"));
  CHECK_THAT(refusal("\\ud83d\\ude00"), Catch::Contains("offset 6"));  // a surrogate alone is no code point
  CHECK_THAT(refusal("\\C"), Catch::Contains("\\C"));
  CHECK_THAT(refusal("(?R)"), Catch::Contains("recursion into the whole pattern"));
  CHECK_THAT(refusal("^a(?0)?"), Catch::Contains("recursion into the whole pattern"));
  CHECK_THAT(refusal("(*UTF)a"), Catch::StartsWith("it cannot be searched for within a longer pattern"));
  CHECK(refusal("a(?1)?(b)") == "(compiled)");  // recursion into a group is fine
}

TEST_CASE("strings of a million characters are searched for real", "[regex]") {
  const std::string letters(1000000, 'a');
  CHECK(search("^[a-z]+$", letters) == Result::Match);
  CHECK(search("^[a-z]+$", letters + "A") == Result::NoMatch);
  CHECK(search("z", letters) == Result::NoMatch);
  CHECK(search("b", letters + "b") == Result::Match);
  // The JIT's stack runs out here (one frame per repetition); the interpreter takes over.
  CHECK(search("^(a|b)*$", std::string(100000, 'a')) == Result::Match);
}

TEST_CASE("a pattern that backtracks badly is too costly, promptly", "[regex]") {
  const auto start = std::chrono::steady_clock::now();
  CHECK(search("^(a+)+$", std::string(40, 'a') + "b") == Result::TooCostly);
  // Unanchored, each starting position could spend the whole limit anew; searched as one match,
  // the limit covers them all.
  std::string blocks;
  for (int i = 0; i < 2000; ++i) blocks += std::string(18, 'a') + "b";
  CHECK(search("(a+)+$", blocks) == Result::TooCostly);
  CHECK(search("^(a|aa)+$", std::string(5000, 'a') + "b") == Result::TooCostly);
  CHECK(std::chrono::steady_clock::now() - start < kPrompt);
}

TEST_CASE("a subject that is not UTF-8 is said to be so, not searched", "[regex]") {
  CHECK(search("a", "a\xff") == Result::InvalidUtf8);
  CHECK(search("^(?!.*\\.\\.)", "\xff../etc") == Result::InvalidUtf8);  // not a pass by default
}

TEST_CASE("one Regex is searched from 4 threads at once", "[regex]") {
  const Regex email("^[a-z]+@[a-z]+\\.[a-z]{2,}$");
  const Regex costly("^(a+)+$");
  const std::string bad = std::string(30, 'a') + "b";
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 2000; ++i)
        if (email.search("ab@cd.ef") != Result::Match || email.search("ab@cd") != Result::NoMatch) ++failures;
      if (costly.search(bad) != Result::TooCostly) ++failures;
    });
  }
  for (auto& thread : threads) thread.join();
  CHECK(failures == 0);
}

TEST_CASE("copies share the compiled pattern", "[regex]") {
  const Regex original("^x+$");
  const Regex copy = original;
  CHECK(copy.search("xxx") == Result::Match);
  CHECK(copy.pattern() == "^x+$");
}
