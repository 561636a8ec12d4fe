#include "core/permission/wildcard.h"

#include <catch2/catch.hpp>

using toold::core::wildcardMatch;

TEST_CASE("wildcard: literal patterns match exactly, anchored at both ends", "[wildcard]") {
  CHECK(wildcardMatch("read", "read"));
  CHECK_FALSE(wildcardMatch("read", "reads"));
  CHECK_FALSE(wildcardMatch("read", "xread"));
  CHECK(wildcardMatch("", ""));
  CHECK_FALSE(wildcardMatch("", "a"));
}

TEST_CASE("wildcard: * matches any run, slashes included", "[wildcard]") {
  CHECK(wildcardMatch("*", ""));
  CHECK(wildcardMatch("*", "a/b/c"));
  CHECK(wildcardMatch("src/*", "src/a/b.ts"));
  CHECK_FALSE(wildcardMatch("src/*", "lib/src/a"));
  CHECK(wildcardMatch("*.env", "config/.env"));
  CHECK(wildcardMatch("a*b*c", "aXXbYYc"));
  CHECK_FALSE(wildcardMatch("a*b*c", "aXXbYY"));
  CHECK(wildcardMatch("a*a*a", "aaaa"));
  CHECK(wildcardMatch("**", "anything"));
}

TEST_CASE("wildcard: ? matches exactly one character, multi-byte ones whole", "[wildcard]") {
  CHECK(wildcardMatch("a?c", "abc"));
  CHECK_FALSE(wildcardMatch("a?c", "ac"));
  CHECK_FALSE(wildcardMatch("a?c", "abbc"));
  CHECK(wildcardMatch("a?c", "a\xC3\xA9" "c"));       // é
  CHECK(wildcardMatch("?", "\xF0\x9F\x98\x80"));       // one emoji
  CHECK_FALSE(wildcardMatch("??", "\xF0\x9F\x98\x80"));
  CHECK(wildcardMatch("*?c", "\xC3\xA9" "c"));
}

TEST_CASE("wildcard: a trailing ' *' also matches the bare prefix", "[wildcard]") {
  CHECK(wildcardMatch("git status *", "git status"));
  CHECK(wildcardMatch("git status *", "git status -s"));
  CHECK_FALSE(wildcardMatch("git status *", "git statuses"));
  CHECK_FALSE(wildcardMatch("git status *", "git"));
}
