#include "builtins/shell/terminal_text.h"

#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

using toold::builtins::cleanTerminalText;
using toold::builtins::TerminalCleaner;

namespace {

/// Feeds `raw` cut at `cuts` (sorted offsets), then finishes.
std::string cleanInPieces(std::string_view raw, const std::vector<std::size_t>& cuts, std::size_t maxLineBytes) {
  TerminalCleaner cleaner(maxLineBytes);
  std::string out;
  std::size_t from = 0;
  for (const std::size_t cut : cuts) {
    cleaner.feed(raw.substr(from, cut - from), out);
    from = cut;
  }
  cleaner.feed(raw.substr(from), out);
  cleaner.finish(out);
  return out;
}

/// The streaming property: every single cut, and byte by byte, gives what the whole input gives.
void checkStreaming(std::string_view raw, std::size_t maxLineBytes = 16 * 1024) {
  INFO("input: " << raw);
  const std::string whole = cleanTerminalText(raw, maxLineBytes);
  for (std::size_t cut = 0; cut <= raw.size(); ++cut) {
    INFO("cut at " << cut);
    REQUIRE(cleanInPieces(raw, {cut}, maxLineBytes) == whole);
  }
  std::vector<std::size_t> everyByte;
  for (std::size_t cut = 1; cut < raw.size(); ++cut) everyByte.push_back(cut);
  REQUIRE(cleanInPieces(raw, everyByte, maxLineBytes) == whole);
}

} // namespace

TEST_CASE("terminal: CSI colour codes are removed", "[terminal]") {
  CHECK(cleanTerminalText("\x1b[1;31merror\x1b[0m: bad\n") == "error: bad\n");
  CHECK(cleanTerminalText("\x1b[38;5;208mo\x1b[38;2;1;2;3mk\x1b[m") == "ok");
  CHECK(cleanTerminalText("a\x1b[2Kb\x1b[?25l\x1b[?25hc") == "abc");
  CHECK(cleanTerminalText("\x1b[") == "");
}

TEST_CASE("terminal: OSC, DCS and charset sequences are removed whole", "[terminal]") {
  CHECK(cleanTerminalText("see \x1b]8;;https://x.org/a\x07the docs\x1b]8;;\x07 now\n") == "see the docs now\n");
  CHECK(cleanTerminalText("see \x1b]8;;https://x.org/a\x1b\\the docs\x1b]8;;\x1b\\ now") == "see the docs now");
  CHECK(cleanTerminalText("\x1b]0;window title\x07prompt$ ") == "prompt$ ");
  // Only an OSC ends with BEL; a DCS needs ST.
  CHECK(cleanTerminalText("a\x1bPq#0;2\x07#1\x1b\\b") == "ab");
  CHECK(cleanTerminalText("a\x1b_apc\x1b\\b\x1b^pm\x1b\\c\x1bXsos\x1b\\d") == "abcd");
  CHECK(cleanTerminalText("\x1b(Bplain\x1b)0 \x1b*A\x1b+Btext\x1b(B\x1b[m") == "plain text");
  CHECK(cleanTerminalText("a\x1b=b\x1b>c\x1b" "7d\x1b" "8e\x1bMf") == "abcdef");
}

TEST_CASE("terminal: a malformed sequence never swallows a line end", "[terminal]") {
  CHECK(cleanTerminalText("a\x1b]unterminated title\nb\n") == "a\nb\n");
  CHECK(cleanTerminalText("a\x1b[12\nb") == "a\nb");
  CHECK(cleanTerminalText("a\x1b(\nb") == "a\nb");
  CHECK(cleanTerminalText("a\x1b\nb") == "a\nb");
  // A non-ASCII byte ends a CSI and stays.
  CHECK(cleanTerminalText("\x1b[3\xc3\xa9t\xc3\xa9") == "\xc3\xa9t\xc3\xa9");
  // ESC x inside a string ends it and is itself removed.
  CHECK(cleanTerminalText("a\x1b]title\x1b[31mb") == "ab");
}

TEST_CASE("terminal: line ends and carriage-return redraws", "[terminal]") {
  CHECK(cleanTerminalText("one\r\ntwo\r\n") == "one\ntwo\n");
  CHECK(cleanTerminalText("one\r\r\ntwo") == "one\ntwo");
  CHECK(cleanTerminalText("10%\r20%\r100%\n") == "100%\n");
  CHECK(cleanTerminalText("10%\r20%\r100%\ndone\n") == "100%\ndone\n");
  CHECK(cleanTerminalText("\r\x1b[2K[###   ] 50%\r\x1b[2K[######] 100%\n") == "[######] 100%\n");
  CHECK(cleanTerminalText("long old text\rnew\n") == "new\n");
  // A '\r' at the very end keeps the line.
  CHECK(cleanTerminalText("spinner |\r") == "spinner |");
  CHECK(cleanTerminalText("a\nb\r") == "a\nb");
  CHECK(cleanTerminalText("\r") == "");
  CHECK(cleanTerminalText("\n\n") == "\n\n");
}

TEST_CASE("terminal: backspace erases a whole character", "[terminal]") {
  CHECK(cleanTerminalText("ab\bc") == "ac");
  CHECK(cleanTerminalText("a\xc3\xa9\b") == "a");
  CHECK(cleanTerminalText("x\xe2\x82\xac\by") == "xy");
  CHECK(cleanTerminalText("x\xf0\x9f\x98\x80\b\by") == "y");
  CHECK(cleanTerminalText("\b\ba") == "a");
  CHECK(cleanTerminalText("a\nb\b\b\n") == "a\n\n");
  // Not a well-formed character: one byte at a time.
  CHECK(cleanTerminalText("a\x80\x80\b") == "a\x80");
  CHECK(cleanTerminalText("a\xe2\x82\b") == "a\xe2");
}

TEST_CASE("terminal: other controls go, tabs and invalid UTF-8 stay", "[terminal]") {
  CHECK(cleanTerminalText(std::string_view("a\0b\x07" "c\x7f" "d\te\x01\x1f", 11)) == "abcd\te");
  CHECK(cleanTerminalText("\xff\xfe ok \xc3") == "\xff\xfe ok \xc3");
}

TEST_CASE("terminal: feed returns the lines it ended and keeps the unfinished one", "[terminal]") {
  TerminalCleaner cleaner;
  std::string out;
  CHECK(cleaner.feed("a\nb\r\nc", out) == 2);
  CHECK(out == "a\nb\n");
  CHECK(cleaner.feed("d\x1b[3", out) == 0);
  CHECK(out == "a\nb\n");
  CHECK(cleaner.feed("1me\n", out) == 1);
  CHECK(out == "a\nb\ncde\n");
  CHECK(cleaner.feed("tail", out) == 0);
  cleaner.finish(out);
  CHECK(out == "a\nb\ncde\ntail");
  // finish leaves it as new, even mid-sequence.
  cleaner.feed("\x1b]8;;x", out);
  cleaner.finish(out);
  std::string again;
  cleaner.feed("plain\n", again);
  CHECK(again == "plain\n");
}

TEST_CASE("terminal: a line past maxLineBytes is cut with a marker", "[terminal]") {
  CHECK(cleanTerminalText("0123456789ABCDEF\nnext\n", 10) == "0123456789 [\u2026 6 bytes cut]\nnext\n");
  CHECK(cleanTerminalText("0123456789", 10) == "0123456789");
  CHECK(cleanTerminalText("0123456789A", 10) == "0123456789 [\u2026 1 bytes cut]");
  // Escape codes do not count: only what is kept of the line.
  CHECK(cleanTerminalText("\x1b[31m0123456789\x1b[0m\n", 10) == "0123456789\n");
  // A character across the limit goes to the cut part whole.
  CHECK(cleanTerminalText("aaaaaaaaa\xe2\x82\xac" "b\n", 10) == "aaaaaaaaa [\u2026 4 bytes cut]\n");
  CHECK(cleanTerminalText("aaaaaaaa\xc3\xa9" "b\n", 10) == "aaaaaaaa\xc3\xa9 [\u2026 1 bytes cut]\n");
  // A redraw starts the line again, within the limit.
  CHECK(cleanTerminalText("0123456789ABC\rxy\n", 10) == "xy\n");
  const std::string huge(1000000, 'x');
  CHECK(cleanTerminalText(huge + "\n", 100) == std::string(100, 'x') + " [\u2026 999900 bytes cut]\n");
}

TEST_CASE("terminal: streaming gives the same text at every split point", "[terminal]") {
  const std::vector<std::string> inputs = {
      "\x1b[1;31merror\x1b[0m: \x1b[38;5;208mbad\x1b[m thing\n",
      "see \x1b]8;;https://x.org/\x07the docs\x1b]8;;\x07 and \x1b]8;;u\x1b\\that\x1b]8;;\x1b\\\n",
      "\x1b(Bplain\x1b)0 \x1b*A\x1b+Btext\x1b(B\x1b[m\x1bPq#0\x1b\\!\n",
      "one\r\ntwo\r\r\nthree\r\n",
      "10%\r20%\r100%\ndone\n",
      "\r\x1b[2K[###   ] 50%\r\x1b[2K[######] 100%\r\n",
      "a\xc3\xa9\b\xe2\x82\xac\b\bz\xf0\x9f\x98\x80\b!\n",
      "last line with a lone CR at the end\r",
      "ab\r",
      "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\n0123456789ABCDEFGH\n\x1b[31mred red red\x1b[0m\n",
      "a\x1b]unterminated\nb\x1b[12\nc\x1b(\n\x1b\n",
  };
  for (const std::string& input : inputs) {
    checkStreaming(input);
    checkStreaming(input, 7); // lines past the limit too
  }
}

TEST_CASE("terminal: streaming holds on random terminal output", "[terminal]") {
  const std::vector<std::string> pieces = {
      "a",      "xyz ",    "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\t",  "\n",     "\r\n",     "\r",
      "\b",     "\x1b[0m", "\x1b[1;3", "\x1b]8;;u\x07", "\x1b]0;t\x1b\\", "\x1b(B", "\x1b", "\x07",
      "\x1bPdcs\x1b\\", "\x7f", "\xff", "\x80",
  };
  std::mt19937 random(12345);
  for (int round = 0; round < 40; ++round) {
    std::string input;
    const std::size_t count = std::uniform_int_distribution<std::size_t>(1, 60)(random);
    for (std::size_t i = 0; i < count; ++i) {
      input += pieces[std::uniform_int_distribution<std::size_t>(0, pieces.size() - 1)(random)];
    }
    checkStreaming(input, std::uniform_int_distribution<std::size_t>(1, 30)(random));
  }
}

TEST_CASE("terminal: runs of controls (a binary stream) go whole, between text and line ends", "[terminal]") {
  const std::string zeros(5000, '\0');
  const std::string raw = "start" + zeros + "\x01\x02\x7f" + "mid\n" + zeros + "\r" + zeros + "end\x1b[1mbold\x1b[0m" + zeros;
  CHECK(cleanTerminalText(raw) == "startmid\nendbold");
  using namespace std::string_literals;
  checkStreaming("a\0\0\0b\n\0\0\r\0x\0\x1b[31m\0red\0\n"s);
}
