#include "core/base/json_line_map.h"

#include <catch2/catch.hpp>

#include <string>

using toold::core::DuplicateKey;
using toold::core::JsonLineMap;
using toold::core::textPositionAt;
using Pointer = nlohmann::json::json_pointer;

namespace {

/// The line of `pointer`, 0 when the map has none (so a CHECK shows the difference plainly).
std::size_t lineOf(const JsonLineMap& map, const std::string& pointer) {
  return map.line(Pointer(pointer)).value_or(0);
}

} // namespace

TEST_CASE("json line map: members by their key's line, elements by their value's", "[json_line_map]") {
  const std::string text = "{\n"                       // 1
                           "  \"a\": {\n"              // 2
                           "    \"b\": 1,\n"           // 3
                           "    \"c\": [\n"            // 4
                           "      true,\n"             // 5
                           "      {\"d\": null},\n"    // 6
                           "\n"                        // 7
                           "      [\"x\", \"y\"]\n"    // 8
                           "    ]\n"                   // 9
                           "  },\n"                    // 10
                           "  \"e\":\n"                // 11
                           "    \"value on the next line\"\n"
                           "}\n";
  const JsonLineMap map(text);
  CHECK(lineOf(map, "") == 1);
  CHECK(lineOf(map, "/a") == 2);
  CHECK(lineOf(map, "/a/b") == 3);
  CHECK(lineOf(map, "/a/c") == 4);
  CHECK(lineOf(map, "/a/c/0") == 5);
  CHECK(lineOf(map, "/a/c/1") == 6);
  CHECK(lineOf(map, "/a/c/1/d") == 6);
  CHECK(lineOf(map, "/a/c/2") == 8);
  CHECK(lineOf(map, "/a/c/2/1") == 8);
  CHECK(lineOf(map, "/e") == 11); // the key's line, not the value's
  CHECK_FALSE(map.line(Pointer("/a/c/3")));
  CHECK_FALSE(map.line(Pointer("/b")));
  CHECK_FALSE(map.line(Pointer("/a/b/0")));
  CHECK(map.duplicates().empty());
}

TEST_CASE("json line map: a document that starts further down, and scalar documents", "[json_line_map]") {
  CHECK(lineOf(JsonLineMap("\n\n  [1,\n2]"), "") == 3);
  CHECK(lineOf(JsonLineMap("\n\n  [1,\n2]"), "/1") == 4);
  CHECK(lineOf(JsonLineMap("\n 42"), "") == 2);
  CHECK_FALSE(JsonLineMap("  \n").line(Pointer("")));
  CHECK(lineOf(JsonLineMap("\xEF\xBB\xBF{\n\"a\": 1}"), "/a") == 2); // a byte order mark is skipped
}

TEST_CASE("json line map: keys with / and ~ are escaped as in JSON Pointer", "[json_line_map]") {
  const JsonLineMap map("{\n"
                        "  \"permission\": {\n"
                        "    \"bash\": {\n"
                        "      \"git *\": \"allow\",\n"
                        "      \"/usr/bin/*\": \"deny\",\n"
                        "      \"~/x\": \"ask\",\n"
                        "      \"~1\": \"ask\"\n"
                        "    }\n"
                        "  }\n"
                        "}");
  CHECK(lineOf(map, "/permission/bash/git *") == 4);
  CHECK(lineOf(map, "/permission/bash/~1usr~1bin~1*") == 5);
  CHECK(lineOf(map, "/permission/bash/~0~1x") == 6);
  CHECK(lineOf(map, "/permission/bash/~01") == 7); // the key ~1 itself, not a /
  Pointer built = Pointer("/permission/bash") / "~/x";
  CHECK(map.line(built) == 6u);
}

TEST_CASE("json line map: escapes in strings are decoded, and an escaped newline inside one is no line", "[json_line_map]") {
  const JsonLineMap map("{\"a\\\"b\": \"line\\nbreak\\n\\n\", \"back\\\\slash\": 0,\n"
                        "\"\\u00e9t\\u00E9\": \"\\\\\\\"\",\n"
                        "\"\\ud83d\\ude00\": 1, \"tab\\t\\/\": [\"]\", \"}\", \"\\\"\"],\n"
                        "\"{,:[\": 2}");
  CHECK(lineOf(map, "/a\"b") == 1);
  CHECK(lineOf(map, "/back\\slash") == 1);
  CHECK(lineOf(map, "/\xC3\xA9t\xC3\xA9") == 2);        // é in UTF-8, whichever case the hex digits
  CHECK(lineOf(map, "/\xF0\x9F\x98\x80") == 3);          // a surrogate pair is one code point
  CHECK(lineOf(map, "/tab\t~1") == 3);
  CHECK(lineOf(map, "/tab\t~1/2") == 3);                  // brackets and quotes inside strings are text
  CHECK_FALSE(map.line(Pointer("/tab\t~1/3")));
  CHECK(lineOf(map, "/{,:[") == 4);
}

TEST_CASE("json line map: CRLF line ends count once", "[json_line_map]") {
  const JsonLineMap map("{\r\n  \"a\": 1,\r\n\r\n  \"b\": [\r\n    2\r\n  ]\r\n}\r\n");
  CHECK(lineOf(map, "/a") == 2);
  CHECK(lineOf(map, "/b") == 4);
  CHECK(lineOf(map, "/b/0") == 5);
}

TEST_CASE("json line map: numbers and literals in every form", "[json_line_map]") {
  const JsonLineMap map("[-1.5e+3,\n0,\nfalse,\nnull,\n1E-2,\n{}]");
  for (std::size_t i = 0; i < 6; ++i) CHECK(lineOf(map, "/" + std::to_string(i)) == i + 1);
}

TEST_CASE("json line map: a repeated key maps to its last occurrence and is reported", "[json_line_map]") {
  const JsonLineMap map("{\n"
                        "  \"a\": {\"x\": 1,\n"
                        "         \"only first\": 2},\n"
                        "  \"b\": 3,\n"
                        "  \"a\": {\n"
                        "    \"x\": 4\n"
                        "  },\n"
                        "  \"c\": {\"k\": 1,\n"
                        "         \"k\": 2}\n"
                        "}");
  CHECK(lineOf(map, "/a") == 5);
  CHECK(lineOf(map, "/a/x") == 6);
  CHECK_FALSE(map.line(Pointer("/a/only first"))); // the earlier value is gone, as in nlohmann's parse
  CHECK(lineOf(map, "/b") == 4);
  REQUIRE(map.duplicates().size() == 2);
  const DuplicateKey& first = map.duplicates()[0];
  CHECK(first.pointer == Pointer("/a"));
  CHECK(first.firstLine == 2);
  CHECK(first.line == 5);
  const DuplicateKey& second = map.duplicates()[1];
  CHECK(second.pointer == Pointer("/c/k"));
  CHECK(second.firstLine == 8);
  CHECK(second.line == 9);
}

TEST_CASE("json line map: the same key in different objects is no repetition", "[json_line_map]") {
  const JsonLineMap map("{\"a\": {\"x\": 1}, \"b\": {\"x\": 2}, \"l\": [{\"x\": 3}, {\"x\": 4}],\n"
                        "\"a~1x\": 0, \"a/x\": 0}");
  CHECK(map.duplicates().empty());
  CHECK(lineOf(map, "/a~1x") == 2);
  CHECK(lineOf(map, "/a/x") == 1);
}

TEST_CASE("json line map: a key repeated inside a replaced value is still reported", "[json_line_map]") {
  const JsonLineMap map("{\"a\": {\"k\": 1,\n\"k\": 2},\n\"a\": 0}");
  REQUIRE(map.duplicates().size() == 2);
  CHECK(map.duplicates()[0].pointer == Pointer("/a/k"));
  CHECK(map.duplicates()[0].line == 2);
  CHECK(map.duplicates()[1].pointer == Pointer("/a"));
  CHECK(map.duplicates()[1].line == 3);
  CHECK_FALSE(map.line(Pointer("/a/k")));
}

TEST_CASE("json line map: text that is not JSON gives what it can, without failing", "[json_line_map]") {
  CHECK(lineOf(JsonLineMap("{\"a\": 1,\n\"b\" 2, \"c\": 3}"), "/a") == 1);
  CHECK_FALSE(JsonLineMap("{\"a\": 1,\n\"b\" 2, \"c\": 3}").line(Pointer("/c")));
  CHECK_FALSE(JsonLineMap("{\"a\": 1,\n\"b\": 2").line(Pointer("/c")));
  CHECK(lineOf(JsonLineMap("{\"a\": 1,\n\"b\": 2"), "/b") == 2);
  CHECK_FALSE(JsonLineMap("{\"unterminated").line(Pointer("/unterminated")));
  CHECK_FALSE(JsonLineMap("{\"bad \\x escape\": 1}").line(Pointer("/bad \\x escape")));
  CHECK(JsonLineMap("[[[[[[[[[[[[[[[[[[[[[[[[").duplicates().empty());
  CHECK(lineOf(JsonLineMap("{\"raw\nnewline\": 1,\n\"c\": 2}"), "/c") == 3); // invalid in JSON, but a line of the text all the same
  const std::string deep = std::string(1000, '[') + "\n1" + std::string(1000, ']');
  std::string innermost;
  for (int i = 0; i < 999; ++i) innermost += "/0";
  CHECK(lineOf(JsonLineMap(deep), innermost) == 1);
  CHECK(lineOf(JsonLineMap(deep), innermost + "/0") == 2);
}

TEST_CASE("json line map: text positions count lines at LF and columns in bytes", "[json_line_map]") {
  const std::string text = "ab\ncd\r\nef";
  CHECK(textPositionAt(text, 0).line == 1);
  CHECK(textPositionAt(text, 0).column == 1);
  CHECK(textPositionAt(text, 1).column == 2);
  CHECK(textPositionAt(text, 2).line == 1); // the LF itself still belongs to its line
  CHECK(textPositionAt(text, 2).column == 3);
  CHECK(textPositionAt(text, 3).line == 2);
  CHECK(textPositionAt(text, 3).column == 1);
  CHECK(textPositionAt(text, 7).line == 3);
  CHECK(textPositionAt(text, 7).column == 1);
  CHECK(textPositionAt(text, 99).line == 3); // past the end: after the last character
  CHECK(textPositionAt(text, 99).column == 3);
  CHECK(textPositionAt("", 0).column == 1);
}
