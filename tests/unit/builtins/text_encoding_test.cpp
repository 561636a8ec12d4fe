#include "builtins/text/text_encoding.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using toold::builtins::DecodedText;
using toold::builtins::decodeText;
using toold::builtins::encodeLike;
using toold::builtins::firstInvalidUtf8;
using toold::builtins::LineEnding;
using toold::builtins::rawOffset;
using toold::builtins::spliceRaw;
using toold::builtins::TextDecodeError;
using toold::builtins::TextReplacement;
using toold::builtins::toLf;
using toold::builtins::withLineEnding;

namespace {

constexpr auto npos = std::string_view::npos;

DecodedText decoded(std::string_view raw) {
  auto result = decodeText(raw);
  REQUIRE(std::holds_alternative<DecodedText>(result));
  return std::get<DecodedText>(std::move(result));
}

TextDecodeError refused(std::string_view raw) {
  auto result = decodeText(raw);
  REQUIRE(std::holds_alternative<TextDecodeError>(result));
  return std::get<TextDecodeError>(std::move(result));
}

// Decodes `raw`, applies `replacements` and returns the bytes to write.
std::string edit(std::string_view raw, const std::vector<TextReplacement>& replacements) {
  return spliceRaw(raw, decoded(raw), replacements);
}

} // namespace

TEST_CASE("text encoding: ASCII and well-formed multi-byte UTF-8 are valid", "[text]") {
  CHECK(firstInvalidUtf8("") == npos);
  CHECK(firstInvalidUtf8("plain ASCII text, longer than eight bytes\n\t~") == npos);
  CHECK(firstInvalidUtf8(std::string_view("nul\0byte", 8)) == npos);
  CHECK(firstInvalidUtf8("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80") == npos);  // é € 😀
  CHECK(firstInvalidUtf8("\xED\x9F\xBF") == npos);                                // U+D7FF
  CHECK(firstInvalidUtf8("\xEE\x80\x80") == npos);                                // U+E000
  CHECK(firstInvalidUtf8("\xF4\x8F\xBF\xBF") == npos);                            // U+10FFFF
  CHECK(firstInvalidUtf8("\xC2\x80\xDF\xBF\xE0\xA0\x80\xF0\x90\x80\x80") == npos); // smallest of each length
}

TEST_CASE("text encoding: ill-formed UTF-8 is found at the first bad sequence", "[text]") {
  CHECK(firstInvalidUtf8("ab\xC0\x80") == 2);                 // overlong NUL
  CHECK(firstInvalidUtf8("\xC1\xBF") == 0);                   // overlong U+007F
  CHECK(firstInvalidUtf8("\xE0\x9F\xBF") == 0);               // overlong U+07FF
  CHECK(firstInvalidUtf8("\xF0\x8F\xBF\xBF") == 0);           // overlong U+FFFF
  CHECK(firstInvalidUtf8("x\xED\xA0\x80") == 1);              // surrogate U+D800
  CHECK(firstInvalidUtf8("x\xED\xBF\xBF") == 1);              // surrogate U+DFFF
  CHECK(firstInvalidUtf8("\xF4\x90\x80\x80") == 0);           // U+110000
  CHECK(firstInvalidUtf8("ok \xF5\x80\x80\x80") == 3);        // F5 never starts a character
  CHECK(firstInvalidUtf8("\xFF") == 0);
  CHECK(firstInvalidUtf8("abc\xE2\x82") == 3);                // truncated at the end
  CHECK(firstInvalidUtf8("abc\xF0\x9F\x98") == 3);
  CHECK(firstInvalidUtf8("\xC3") == 0);
  CHECK(firstInvalidUtf8("\xC3(") == 0);                      // lead byte without its continuation
  CHECK(firstInvalidUtf8("\xE2\x82(") == 0);
  CHECK(firstInvalidUtf8("a\x80") == 1);                      // stray continuation byte
  CHECK(firstInvalidUtf8("\xC3\xA9\xA9") == 2);               // one continuation too many
  // Past the eight-byte ASCII fast path, and right at its boundary.
  CHECK(firstInvalidUtf8("0123456789abcdef\x80") == 16);
  CHECK(firstInvalidUtf8("01234567\xE9") == 8);
  CHECK(firstInvalidUtf8("0123456\xE9xxxxxxxx") == 7);
}

TEST_CASE("text encoding: invalid UTF-8 is refused with the byte and its offset", "[text]") {
  const auto error = refused("caf\xE9 au lait\n");
  CHECK(error.offset == 3);
  CHECK(error.message == "is not valid UTF-8 (byte 0xE9 at offset 3 is not part of a UTF-8 character); toold edits "
                         "UTF-8 text only, so it was left unchanged. Convert it to UTF-8 first, or edit it with the "
                         "shell.");
  // The offset counts the BOM: it is an offset in the file.
  const auto afterBom = refused("\xEF\xBB\xBF" "ab\x0A\x8F");
  CHECK(afterBom.offset == 6);
  CHECK(afterBom.message.starts_with("is not valid UTF-8 (byte 0x8F at offset 6 is not part"));
  // CRLF lines before the bad byte count twice.
  CHECK(refused("a\r\nb\r\n\xC0\x80").offset == 6);
}

TEST_CASE("text encoding: UTF-16 and UTF-32 files are refused by their BOM", "[text]") {
  const std::string utf16 = "is UTF-16 (it starts with a UTF-16 BOM); toold edits UTF-8 text only, so it was left unchanged";
  const std::string utf32 = "is UTF-32 (it starts with a UTF-32 BOM); toold edits UTF-8 text only, so it was left unchanged";
  CHECK(refused(std::string_view("\xFF\xFEh\0i\0", 6)).message == utf16);
  CHECK(refused(std::string_view("\xFE\xFF\0h\0i", 6)).message == utf16);
  CHECK(refused(std::string_view("\xFF\xFE\0\0h\0\0\0", 8)).message == utf32);
  CHECK(refused(std::string_view("\0\0\xFE\xFF\0\0\0h", 8)).message == utf32);
  CHECK(refused("\xFF\xFE").offset == 0);
}

TEST_CASE("text encoding: a UTF-8 BOM is stripped and kept through an edit", "[text]") {
  const std::string raw = "\xEF\xBB\xBFhello\nworld\n";
  const auto text = decoded(raw);
  CHECK(text.bom);
  CHECK(text.text == "hello\nworld\n");
  CHECK(text.lineEnding == LineEnding::Lf);
  CHECK(rawOffset(text, 0) == 3);
  CHECK(spliceRaw(raw, text, {{0, 5, "bye"}}) == "\xEF\xBB\xBF" "bye\nworld\n");
  CHECK(encodeLike(text, "new\n") == "\xEF\xBB\xBFnew\n");
  CHECK(decoded("\xEF\xBB\xBF").text.empty());
  CHECK_FALSE(decoded("plain").bom);
}

TEST_CASE("text encoding: a CRLF file decodes to LF text and maps positions back", "[text]") {
  const std::string raw = "one\r\ntwo\r\nthree\r\n";
  const auto text = decoded(raw);
  CHECK_FALSE(text.bom);
  CHECK(text.text == "one\ntwo\nthree\n");
  CHECK(text.crlfAt == std::vector<std::size_t>{3, 7, 13});
  CHECK(text.lineEnding == LineEnding::Crlf);

  CHECK(rawOffset(text, 0) == 0);
  CHECK(rawOffset(text, 2) == 2);
  CHECK(rawOffset(text, 3) == 3);   // the '\n' of "one\r\n" maps to its '\r'
  CHECK(rawOffset(text, 4) == 5);   // 't' of "two"
  CHECK(rawOffset(text, 7) == 8);
  CHECK(rawOffset(text, 8) == 10);
  CHECK(rawOffset(text, 14) == 17); // the end
}

TEST_CASE("text encoding: splicing a CRLF file keeps its line ends", "[text]") {
  const std::string raw = "one\r\ntwo\r\nthree\r\n";
  // A span ending before the line end leaves the whole "\r\n" in place.
  CHECK(edit(raw, {{4, 7, "2"}}) == "one\r\n2\r\nthree\r\n");
  // A span including the line end removes the whole "\r\n".
  CHECK(edit(raw, {{4, 8, ""}}) == "one\r\nthree\r\n");
  CHECK(edit(raw, {{3, 4, " "}}) == "one two\r\nthree\r\n");
  // New lines are written as CRLF; an insertion at a line end goes before its "\r\n".
  CHECK(edit(raw, {{4, 4, "a\nb\n"}}) == "one\r\na\r\nb\r\ntwo\r\nthree\r\n");
  CHECK(edit(raw, {{3, 3, "\nmore"}}) == "one\r\nmore\r\ntwo\r\nthree\r\n");
  CHECK(edit(raw, {{14, 14, "four\n"}}) == "one\r\ntwo\r\nthree\r\nfour\r\n");
  // Replacement text that already has CRLF is not doubled.
  CHECK(edit(raw, {{0, 3, "a\r\nb"}}) == "a\r\nb\r\ntwo\r\nthree\r\n");
  // Several replacements at once.
  CHECK(edit(raw, {{0, 3, "ONE"}, {8, 13, "3\n3"}}) == "ONE\r\ntwo\r\n3\r\n3\r\n");
  CHECK(edit(raw, {}) == raw);
}

TEST_CASE("text encoding: a mixed file keeps each untouched line's own ending", "[text]") {
  const std::string raw = "a\r\nb\nc\r\nd\n";
  const auto text = decoded(raw);
  CHECK(text.text == "a\nb\nc\nd\n");
  CHECK(text.crlfAt == std::vector<std::size_t>{1, 5});
  CHECK(text.lineEnding == LineEnding::Crlf);  // a tie goes to CRLF
  CHECK(edit(raw, {{4, 5, "C"}}) == "a\r\nb\nC\r\nd\n");
  CHECK(edit(raw, {{4, 5, "C\nX"}}) == "a\r\nb\nC\r\nX\r\nd\n");

  const std::string mostlyLf = "a\r\nb\nc\n";
  CHECK(decoded(mostlyLf).lineEnding == LineEnding::Lf);
  CHECK(edit(mostlyLf, {{0, 0, "x\ny\n"}}) == "x\ny\na\r\nb\nc\n");
  CHECK(edit(mostlyLf, {{2, 3, "B"}}) == "a\r\nB\nc\n");
}

TEST_CASE("text encoding: a missing final newline stays missing", "[text]") {
  const std::string raw = "a\r\nb";
  const auto text = decoded(raw);
  CHECK(text.text == "a\nb");
  CHECK(text.lineEnding == LineEnding::Crlf);
  CHECK(edit(raw, {{2, 3, "B"}}) == "a\r\nB");
  CHECK(edit(raw, {{3, 3, "\nc"}}) == "a\r\nb\r\nc");
  CHECK(edit("x", {{0, 1, "y"}}) == "y");
  CHECK(decoded("no line end").lineEnding == LineEnding::Lf);
  CHECK(decoded("").text.empty());
}

TEST_CASE("text encoding: a lone carriage return is ordinary text", "[text]") {
  const std::string raw = "a\rb\r\nc";
  const auto text = decoded(raw);
  CHECK(text.text == "a\rb\nc");
  CHECK(text.crlfAt == std::vector<std::size_t>{3});
  CHECK(edit(raw, {{4, 5, "C"}}) == "a\rb\r\nC");
  CHECK(edit(raw, {{0, 1, "A"}}) == "A\rb\r\nc");

  // "\r\r\n": the first '\r' is text, the second ends the line.
  const auto doubled = decoded("x\r\r\ny");
  CHECK(doubled.text == "x\r\ny");
  CHECK(doubled.crlfAt == std::vector<std::size_t>{2});
  CHECK(rawOffset(doubled, 2) == 2);
  CHECK(rawOffset(doubled, 3) == 4);

  const auto trailing = decoded("end\r");
  CHECK(trailing.text == "end\r");
  CHECK(trailing.crlfAt.empty());
  CHECK(trailing.lineEnding == LineEnding::Lf);
}

TEST_CASE("text encoding: NUL bytes are kept", "[text]") {
  const std::string raw("a\0b\r\n", 5);
  const auto text = decoded(raw);
  CHECK(text.text == std::string("a\0b\n", 4));
  CHECK(edit(raw, {{2, 3, "c"}}) == std::string("a\0c\r\n", 5));
}

TEST_CASE("text encoding: line-end conversions", "[text]") {
  CHECK(toLf("a\r\nb\r\n") == "a\nb\n");
  CHECK(toLf("a\rb\r\r\n") == "a\rb\r\n");
  CHECK(toLf("") == "");
  CHECK(withLineEnding("a\nb\n", LineEnding::Crlf) == "a\r\nb\r\n");
  CHECK(withLineEnding("a\r\nb\n", LineEnding::Crlf) == "a\r\nb\r\n");
  CHECK(withLineEnding("\n\n", LineEnding::Crlf) == "\r\n\r\n");
  CHECK(withLineEnding("a\rb", LineEnding::Crlf) == "a\rb");
  CHECK(withLineEnding("a\nb\n", LineEnding::Lf) == "a\nb\n");
}

TEST_CASE("text encoding: encodeLike writes whole text in the file's style", "[text]") {
  CHECK(encodeLike(decoded("\xEF\xBB\xBFx\r\ny\r\n"), "1\n2\n3") == "\xEF\xBB\xBF" "1\r\n2\r\n3");
  CHECK(encodeLike(decoded("x\ny\n"), "1\n2\n") == "1\n2\n");
  CHECK(encodeLike(decoded(""), "1\n") == "1\n");
  CHECK(encodeLike(decoded("a\r\nb\nc\n"), "1\n") == "1\n");
}
