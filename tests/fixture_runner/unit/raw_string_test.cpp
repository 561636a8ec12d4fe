// The `>raw` escape decoder and its inverse.
#include "raw_string.h"

#include <catch2/catch.hpp>

using toold::fixture::decodeRawString;
using toold::fixture::encodeRawString;
using toold::fixture::RawStringError;

TEST_CASE("plain text and every escape", "[raw]") {
  CHECK(decodeRawString(R"("abc")") == "abc");
  CHECK(decodeRawString(R"("a\r\nb\t\\\"")") == "a\r\nb\t\\\"");
  CHECK(decodeRawString(R"("\xff\x00\x7F")") == std::string("\xff\x00\x7f", 3));
  CHECK(decodeRawString(R"(  "x"  )") == "x");
  CHECK(decodeRawString(R"("")").empty());
  CHECK(decodeRawString(R"("{\"a\":1}\n")") == "{\"a\":1}\n");
}

TEST_CASE("malformed raw strings say where", "[raw]") {
  auto offsetOf = [](const char* text) {
    try {
      decodeRawString(text);
    } catch (const RawStringError& e) {
      return e.offset;
    }
    FAIL("no error for " << text);
    return std::size_t{0};
  };
  CHECK_THROWS_WITH(decodeRawString("abc"), "expected a double-quoted string");
  CHECK_THROWS_WITH(decodeRawString(R"("abc)"), "missing closing double quote");
  CHECK_THROWS_WITH(decodeRawString(R"("a\qb")"), Catch::StartsWith("unknown escape \\q"));
  CHECK(offsetOf(R"("a\qb")") == 2);
  CHECK_THROWS_WITH(decodeRawString(R"("\x4")"), "\\x needs two hex digits");
  CHECK_THROWS_WITH(decodeRawString(R"("\xzz")"), "\\x needs two hex digits");
  CHECK_THROWS_WITH(decodeRawString(R"("ab" c)"), "unexpected text after the closing double quote");
  CHECK(offsetOf(R"("ab" c)") == 5);
  CHECK_THROWS_WITH(decodeRawString(R"("ab\)"), "a backslash ends the string");
}

TEST_CASE("encoding is the inverse of decoding", "[raw]") {
  const std::string bytes("Content-Length: 2\r\n\r\n\xff\x01\"\\\t", 26);
  CHECK(encodeRawString(bytes) == R"("Content-Length: 2\r\n\r\n\xff\x01\"\\\t")");
  CHECK(decodeRawString(encodeRawString(bytes)) == bytes);
}
