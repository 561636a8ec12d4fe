#include "builtins/text/punctuation.h"

#include <catch2/catch.hpp>

#include <string>

using toold::builtins::foldPunctuation;

TEST_CASE("punctuation: curly quotes and primes fold to ASCII quotes", "[text]") {
  CHECK(foldPunctuation("\xE2\x80\x98it\xE2\x80\x99s\xE2\x80\x9A\xE2\x80\x9B") == "'it's''");     // ‘ ’ ‚ ‛
  CHECK(foldPunctuation("\xE2\x80\x9Cquoted\xE2\x80\x9D \xE2\x80\x9E\xE2\x80\x9F") == "\"quoted\" \"\""); // “ ” „ ‟
  CHECK(foldPunctuation("5\xE2\x80\xB2 6\xE2\x80\xB3") == "5' 6\"");                                 // ′ ″
}

TEST_CASE("punctuation: dashes and the minus sign fold to a hyphen", "[text]") {
  // U+2010 through U+2015, then U+2212, each alone.
  for (const char* dash : {"\xE2\x80\x90", "\xE2\x80\x91", "\xE2\x80\x92", "\xE2\x80\x93", "\xE2\x80\x94", "\xE2\x80\x95",
                           "\xE2\x88\x92"})
    CHECK(foldPunctuation(std::string("a") + dash + "b") == "a-b");
  CHECK(foldPunctuation("a \xE2\x80\x94 b, 3 \xE2\x88\x92 1") == "a - b, 3 - 1");
}

TEST_CASE("punctuation: a run of dashes is one dash, so an em dash and '--' fold alike", "[text]") {
  CHECK(foldPunctuation("\xE2\x80\x90\xE2\x80\x91\xE2\x80\x92\xE2\x80\x93\xE2\x80\x94\xE2\x80\x95") == "-");
  CHECK(foldPunctuation("wait \xE2\x80\x94 now") == foldPunctuation("wait -- now"));
  CHECK(foldPunctuation("x---y") == "x-y");
  CHECK(foldPunctuation("a - b") == "a - b"); // single dashes with spaces stay as they are
}

TEST_CASE("punctuation: arrows and comparison signs fold to their ASCII spelling", "[text]") {
  CHECK(foldPunctuation("f(x) \xE2\x86\x92 int") == "f(x) -> int");              // →
  CHECK(foldPunctuation("a \xE2\x86\x90 b \xE2\x86\x94 c") == "a <- b <-> c");   // ← ↔
  CHECK(foldPunctuation("k \xE2\x87\x92 v") == "k => v");                        // ⇒
  CHECK(foldPunctuation("\xE2\x89\xA4 \xE2\x89\xA5 \xE2\x89\xA0") == "<= >= !="); // ≤ ≥ ≠
}

TEST_CASE("punctuation: zero-width characters and the byte-order mark vanish", "[text]") {
  CHECK(foldPunctuation("\xEF\xBB\xBF" "def f():") == "def f():");                       // BOM
  CHECK(foldPunctuation("a\xE2\x80\x8B" "b\xE2\x80\x8C" "c\xE2\x80\x8D" "d\xE2\x81\xA0" "e") == "abcde"); // ZWSP ZWNJ ZWJ WJ
}

TEST_CASE("punctuation: the ellipsis becomes three dots", "[text]") {
  CHECK(foldPunctuation("wait\xE2\x80\xA6") == "wait...");
}

TEST_CASE("punctuation: odd spaces become a plain space", "[text]") {
  CHECK(foldPunctuation("a\xC2\xA0" "b") == "a b");                     // NBSP
  CHECK(foldPunctuation("\xE2\x80\x82\xE2\x80\x85\xE2\x80\x8A") == "   "); // U+2002, U+2005, U+200A
  CHECK(foldPunctuation("\xE2\x80\xAF\xE2\x81\x9F\xE3\x80\x80") == "   "); // U+202F, U+205F, U+3000
}

TEST_CASE("punctuation: everything else is copied unchanged", "[text]") {
  CHECK(foldPunctuation("") == "");
  CHECK(foldPunctuation("plain 'ASCII' \"text\" - ...") == "plain 'ASCII' \"text\" - ...");
  const std::string other = "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80 \xE6\x97\xA5 \xC2\xA9";  // é € 😀 日 ©
  CHECK(foldPunctuation(other) == other);
  // Neighbours of the folded ranges stay: U+2000/2001 quads, U+200E mark, U+2016, U+2034, U+2193 arrow.
  const std::string neighbours = "\xE2\x80\x80\xE2\x80\x81\xE2\x80\x8E\xE2\x80\x96\xE2\x80\xB4\xE2\x86\x93";
  CHECK(foldPunctuation(neighbours) == neighbours);
}

TEST_CASE("punctuation: ill-formed bytes are copied one by one", "[text]") {
  CHECK(foldPunctuation("a\xE2\x80") == "a\xE2\x80");                        // truncated at the end
  CHECK(foldPunctuation("\xE2(\xE2\x80\x9C") == "\xE2(\"");                  // bad, then a good quote
  CHECK(foldPunctuation("\x80\xBF-") == "\x80\xBF-");                        // stray continuation bytes
  CHECK(foldPunctuation("\xE0\x82\xA0") == "\xE0\x82\xA0");                  // overlong NBSP is not folded
  CHECK(foldPunctuation("\xC1\xBF") == "\xC1\xBF");
  CHECK(foldPunctuation(std::string("x\0\xE2\x80\xA6", 5)) == std::string("x\0...", 5));
}
