#include "builtins/search/searcher.h"

#include "builtins/search/required_literal.h"
#include "tests/support/temp_dir.h"

#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

using toold::builtins::FileSearcher;
using toold::builtins::FileSearchResult;
using toold::builtins::SearchPattern;
using toold::builtins::SearchSink;
using Status = toold::builtins::FileSearchResult::Status;

namespace {

/// Collects "number:text" per reported line; stops after `stopAfter` lines.
struct CollectingSink : SearchSink {
  std::vector<std::string> lines;
  std::size_t stopAfter = static_cast<std::size_t>(-1);
  bool matched(std::uint64_t lineNumber, std::string_view line) override {
    lines.push_back(std::to_string(lineNumber) + ":" + std::string(line));
    return lines.size() < stopAfter;
  }
};

struct Outcome {
  Status status = Status::Searched;
  std::uint64_t matchedLines = 0;
  std::vector<std::string> lines;
};

SearchPattern compiled(std::string_view pattern, SearchPattern::Options options = {}) {
  auto result = SearchPattern::compile(pattern, options);
  if (const auto* error = std::get_if<std::string>(&result)) FAIL("/" << pattern << "/ does not compile: " << *error);
  return std::get<SearchPattern>(std::move(result));
}

void writeFile(const std::filesystem::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

/// Searches `bytes` four ways — in memory and from a file, with a sink and counting only — and
/// checks that all agree; returns what the in-memory search with a sink found.
Outcome searchBoth(std::string_view pattern, std::string_view bytes, SearchPattern::Options options = {}) {
  const SearchPattern compiledPattern = compiled(pattern, options);
  FileSearcher searcher(compiledPattern);
  CollectingSink memorySink;
  const FileSearchResult inMemory = searcher.searchBytes(bytes, &memorySink);

  toold::testing::TempDir dir("searcher");
  const auto path = dir.path() / "file.txt";
  writeFile(path, bytes);
  CollectingSink fileSink;
  const FileSearchResult fromFile = searcher.search(path, &fileSink, toold::core::CancellationToken());
  CHECK(fromFile.status == inMemory.status);
  CHECK(fromFile.matchedLines == inMemory.matchedLines);
  CHECK(fileSink.lines == memorySink.lines);
  CHECK(inMemory.matchedLines == memorySink.lines.size());

  const FileSearchResult countedInMemory = searcher.searchBytes(bytes, nullptr);
  const FileSearchResult countedFromFile = searcher.search(path, nullptr, toold::core::CancellationToken());
  CHECK(countedInMemory.status == inMemory.status);
  CHECK(countedInMemory.matchedLines == inMemory.matchedLines);
  CHECK(countedFromFile.status == inMemory.status);
  CHECK(countedFromFile.matchedLines == inMemory.matchedLines);
  return Outcome{inMemory.status, inMemory.matchedLines, memorySink.lines};
}

using Lines = std::vector<std::string>;

/// What a line-by-line search for `needle` finds in `text`: the reference the block search must
/// agree with.
Lines linesContaining(const std::string& text, std::string_view needle) {
  Lines found;
  std::size_t number = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    ++number;
    const std::string_view line(text.data() + pos, end - pos);
    if (line.find(needle) != std::string_view::npos) found.push_back(std::to_string(number) + ":" + std::string(line));
    pos = end + 1;
  }
  return found;
}

} // namespace

TEST_CASE("searcher: a literal pattern reports the matching lines with their numbers", "[searcher]") {
  CHECK(compiled("beta").isLiteral());
  CHECK(compiled("beta").pattern() == "beta");
  const Outcome found = searchBoth("beta", "alpha\nbeta\ngamma beta\ndelta\n");
  CHECK(found.status == Status::Searched);
  CHECK(found.matchedLines == 2);
  CHECK(found.lines == Lines{"2:beta", "3:gamma beta"});
  // Literal on request: the regex syntax is text.
  CHECK(compiled("a.b(", {false, true}).isLiteral());
  CHECK(searchBoth("a.b(", "axb(\na.b(c\n", {false, true}).lines == Lines{"2:a.b(c"});
}

TEST_CASE("searcher: a regex reports the matching lines with their numbers", "[searcher]") {
  CHECK_FALSE(compiled("b[a-z]+a").isLiteral());
  CHECK(searchBoth("b[a-z]+a", "alpha\nbeta\nba\ngamma bxxa\n").lines == Lines{"2:beta", "4:gamma bxxa"});
  CHECK(searchBoth(R"(\d{3}-\d{4})", "call 555-1234\nnone\n12-34\n").lines == Lines{"1:call 555-1234"});
  // An empty pattern matches every line, and there is no line after the last "\n".
  CHECK(searchBoth("", "a\n\nb\n").lines == Lines{"1:a", "2:", "3:b"});
}

TEST_CASE("searcher: a line with several matches is reported once", "[searcher]") {
  const Outcome found = searchBoth("foo", "foo foo foo\nbar\nfoofoo\n");
  CHECK(found.matchedLines == 2);
  CHECK(found.lines == Lines{"1:foo foo foo", "3:foofoo"});
  CHECK(searchBoth("o+", "foo foo\nbar\n").lines == Lines{"1:foo foo"});
}

TEST_CASE("searcher: ^ and $ hold at every line's start and end", "[searcher]") {
  const std::string text = "ab\nba\nab\n";
  CHECK(searchBoth("^a", text).lines == Lines{"1:ab", "3:ab"});
  CHECK(searchBoth("a$", text).lines == Lines{"2:ba"});
  CHECK(searchBoth("^ab$", text).lines == Lines{"1:ab", "3:ab"});
  CHECK(searchBoth("^$", "a\n\nb\n").lines == Lines{"2:"});
  CHECK(searchBoth("^", "a\n\nb\n").matchedLines == 3);
  CHECK(searchBoth("$", "a\nb").lines == Lines{"1:a", "2:b"});
  // \A and \z too, as in ripgrep: each line is a subject of its own.
  CHECK(searchBoth(R"(\Afoo)", "foo\nfoo\nxfoo\n").lines == Lines{"1:foo", "2:foo"});
  CHECK(searchBoth(R"(o\z)", "foo\nfoo\nxfoox\n").lines == Lines{"1:foo", "2:foo"});
  CHECK(searchBoth(R"(\A\w+o\z)", "foo\n boo\nxfoo").lines == Lines{"1:foo", "3:xfoo"});
}

TEST_CASE("searcher: a match never spans lines", "[searcher]") {
  CHECK(searchBoth(R"(a\sb)", "a\nb\n").lines.empty());
  CHECK(searchBoth(R"(a\sb)", "a\nb\na b\n").lines == Lines{"3:a b"});
  CHECK(searchBoth(R"(a[^x]b)", "a\nb\naxb\nayb\n").lines == Lines{"4:ayb"});
  CHECK(searchBoth(R"(a\nb)", "a\nb\n").lines.empty());
  CHECK(searchBoth(R"(\s+$)", "a\nb \nc\n").lines == Lines{"2:b "});
  // The match found first crosses a line end; the line still matches on its own.
  CHECK(searchBoth(R"(a\s|a)", "xa\nb\n").lines == Lines{"1:xa"});
  // A literal with a newline in it, likewise.
  CHECK(searchBoth("a\nb", "a\nb\n", {false, true}).lines.empty());
}

TEST_CASE("searcher: CRLF lines are reported without the CR, which $ does not skip", "[searcher]") {
  const std::string text = "x\r\nfoo\r\n";
  CHECK(searchBoth("foo", text).lines == Lines{"2:foo"});
  CHECK(searchBoth("x$", text).lines.empty());
  CHECK(searchBoth(R"(x\r$)", text).lines == Lines{"1:x"});
}

TEST_CASE("searcher: a last line without a newline is a line, an empty file has none", "[searcher]") {
  CHECK(searchBoth("foo", "a\nfoo").lines == Lines{"2:foo"});
  CHECK(searchBoth("foo$", "a\nfoo").lines == Lines{"2:foo"});
  CHECK(searchBoth("foo", "foo").lines == Lines{"1:foo"});
  const Outcome empty = searchBoth("", "");
  CHECK(empty.status == Status::Searched);
  CHECK(empty.matchedLines == 0);
  CHECK(searchBoth("^", "").matchedLines == 0);
  CHECK(searchBoth("x", "").matchedLines == 0);
  CHECK(searchBoth("^$", "\n").lines == Lines{"1:"});
}

TEST_CASE("searcher: a 10 MB line is searched whole and reported cut", "[searcher]") {
  std::string line(10'000'000, 'a');
  line.replace(line.size() - 100, 6, "needle");
  const std::string cut = line.substr(0, FileSearcher::kMaxLineBytes);
  CHECK(searchBoth("needle", "x\n" + line + "\nneedle\n").lines == Lines{"2:" + cut, "3:needle"});
  CHECK(searchBoth("ne+dle", line).lines == Lines{"1:" + cut});
  CHECK(searchBoth("needle$", line).lines.empty());
}

TEST_CASE("searcher: a cut line ends before a UTF-8 sequence, not inside one", "[searcher]") {
  std::string line = "a";
  for (int i = 0; i < 5000; ++i) line += "\xC3\xA9"; // é: its second byte lies at kMaxLineBytes
  const Outcome found = searchBoth("a", line + "\n");
  REQUIRE(found.lines.size() == 1);
  CHECK(found.lines[0] == "1:" + line.substr(0, FileSearcher::kMaxLineBytes - 1));
}

TEST_CASE("searcher: a line longer than the largest buffer is searched in windows", "[searcher]") {
  constexpr std::size_t kWindow = 16 * 1024 * 1024;
  std::string line(kWindow + 4'000'000, 'a');
  const std::string cut = line.substr(0, FileSearcher::kMaxLineBytes);
  std::string across = line;
  across.replace(kWindow - 3, 6, "needle"); // across the first window's end
  CHECK(searchBoth("needle", "first\n" + across + "\nneedle too\n").lines ==
        Lines{"2:" + cut, "3:needle too"});
  CHECK(searchBoth("ne{2}dle", across).lines == Lines{"1:" + cut});
  std::string late = line;
  late.replace(late.size() - 10, 6, "needle");
  CHECK(searchBoth("needle", late + "\n").lines == Lines{"1:" + cut});
  CHECK(searchBoth("needle", line + "\nx\n").lines.empty());
  CHECK(searchBoth("^a", line).matchedLines == 1);
  CHECK(searchBoth("b|^aa$", line + "\n").lines.empty()); // "^" and "$" only at the line's ends
  // A window with non-ASCII text keeps Unicode classes, after an all-ASCII line or none.
  std::string wide(kWindow + 4'000'000, ' ');
  wide.replace(kWindow + 1'000'000, 8, " na\xC3\xAFve ");
  const std::string wideCut = wide.substr(0, FileSearcher::kMaxLineBytes);
  CHECK(searchBoth(R"(\b\w{5}\b)", "ascii\n" + wide + "\n").lines == Lines{"1:ascii", "2:" + wideCut});
  CHECK(searchBoth(R"(\b\w{5}\b)", wide).matchedLines == 1);
}

TEST_CASE("searcher: lines across block boundaries keep their numbers", "[searcher]") {
  std::string text;
  for (int i = 0; text.size() < 1'500'000; ++i) {
    text += "line " + std::to_string(i) + " filler text to make the line longer";
    if (i % 499 == 0) text += " needle";
    if (i == 9000) text += std::string(400'000, 'z') + " needle"; // a line longer than a block
    if (i == 12000) text += std::string(300'000, 'y');
    text += "\n";
  }
  const Lines expected = linesContaining(text, "needle");
  REQUIRE(expected.size() > 20);
  const auto cutToMax = [](Lines lines) {
    for (std::string& line : lines) {
      const std::size_t colon = line.find(':');
      line.resize(std::min(line.size(), colon + 1 + FileSearcher::kMaxLineBytes));
    }
    return lines;
  };
  CHECK(searchBoth("needle", text).lines == cutToMax(expected));
  CHECK(searchBoth("nee+dle", text).lines == cutToMax(expected));
  CHECK(searchBoth(R"(\w+dle)", text).lines == cutToMax(expected));
  // Without a final newline, the last line is still searched.
  const auto lineCount = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
  text += "last needle";
  const Outcome withLast = searchBoth("needle", text);
  CHECK(withLast.matchedLines == expected.size() + 1);
  CHECK(withLast.lines.back() == std::to_string(lineCount + 1) + ":last needle");
}

TEST_CASE("searcher: a NUL byte makes the file binary and stops the search", "[searcher]") {
  using namespace std::string_literals;
  const Outcome first = searchBoth("foo", "foo\n\0foo\n"s);
  CHECK(first.status == Status::Binary);
  CHECK(first.matchedLines == 0);
  CHECK(first.lines.empty());
  // A NUL after the first block: the lines of the blocks before it stay reported.
  std::string text = "foo first\n";
  while (text.size() < 600'000) text += "filler line without the word\n";
  text += "foo\n"s + '\0' + "foo\n";
  const Outcome later = searchBoth("foo", text);
  CHECK(later.status == Status::Binary);
  CHECK(later.lines == Lines{"1:foo first"});
}

TEST_CASE("searcher: bytes that are not UTF-8 do not stop a match around them", "[searcher]") {
  const std::string text = "\xff\xfe" "foo\xff\n" "x\xc3" "bar\n" "\xff" "foo\n" "xfoo\n";
  CHECK(searchBoth("foo", text).lines == Lines{"1:\xff\xfe" "foo\xff", "3:\xff" "foo", "4:xfoo"});
  CHECK(searchBoth("ba[r]", text).lines == Lines{"2:x\xc3" "bar"});
  CHECK(searchBoth("^.foo", text).lines == Lines{"4:xfoo"}); // "." is a character, never a stray byte
}

TEST_CASE("searcher: case-insensitive search folds Unicode case", "[searcher]") {
  const std::string text = "Foo\nFOO\nfoo\nbar\n\xC3\x89T\xC3\x89\n";
  CHECK(searchBoth("fOo", text, {true, false}).lines == Lines{"1:Foo", "2:FOO", "3:foo"});
  CHECK(searchBoth("f[o]+", text, {true, false}).matchedLines == 3);
  CHECK(searchBoth("\xC3\xA9t\xC3\xA9", text, {true, false}).lines == Lines{"5:\xC3\x89T\xC3\x89"});
  CHECK(searchBoth("k", "a \xE2\x84\xAA b\n", {true, false}).matchedLines == 1); // the Kelvin sign, as in rg -i
  CHECK(searchBoth("fOo", text).matchedLines == 0);
}

TEST_CASE("searcher: the word, digit and boundary classes know Unicode, as ripgrep's do", "[searcher]") {
  CHECK(searchBoth(R"(^\w+$)", "\xC3\xA9t\xC3\xA9\n").matchedLines == 1);
  CHECK(searchBoth(R"(\bfoo\b)", "\xC3\xA9" "foo\nfoo\n").lines == Lines{"2:foo"});
}

TEST_CASE("searcher: Unicode classes hold in the blocks with non-ASCII text among all-ASCII ones", "[searcher]") {
  // All-ASCII blocks are searched without Unicode properties (faster, the same on such text); a
  // block with one non-ASCII line among them must still be searched with them.
  std::string text;
  Lines fiveLetterWords, digitLines, alphaLines;
  for (int i = 0; text.size() < 1'200'000; ++i) {
    std::string line = "row " + std::to_string(i) + " of filler text";
    if (i % 1000 == 7) line = "hello";                        // ASCII, five word characters
    if (i == 12345) line = "na\xC3\xAFve";                     // non-ASCII, five word characters
    if (i == 12346) line = "\xD9\xA3\xD9\xA4\xD9\xA5";         // Arabic-Indic digits
    if (i % 1000 == 8) line = "42";
    if (i == 12347) line = "\xC3\xA9t\xC3\xA9";               // letters, as [[:alpha:]] sees them
    const std::string numbered = std::to_string(i + 1) + ":" + line;
    if (line == "hello" || i == 12345) fiveLetterWords.push_back(numbered);
    if (line == "42" || i == 12346) digitLines.push_back(numbered);
    if (line == "hello" || i == 12345 || i == 12347) alphaLines.push_back(numbered);
    text += line + "\n";
  }
  CHECK(searchBoth(R"(^\w{5}$)", text).lines == fiveLetterWords);
  CHECK(searchBoth(R"(^\d+$)", text).lines == digitLines);
  CHECK(searchBoth(R"(^[[:alpha:]]+$)", text).lines == alphaLines);
  CHECK(searchBoth(R"(^\S+$)", text).lines.size() == fiveLetterWords.size() + digitLines.size() + 1);
}

TEST_CASE("searcher: an invalid pattern is refused with the reason and its offset", "[searcher]") {
  const auto unclosed = SearchPattern::compile("(abc");
  REQUIRE(std::holds_alternative<std::string>(unclosed));
  CHECK(std::get<std::string>(unclosed) == "missing closing parenthesis at offset 4");
  const auto quantifier = SearchPattern::compile("a{2,1}");
  REQUIRE(std::holds_alternative<std::string>(quantifier));
  CHECK(std::get<std::string>(quantifier) == "numbers out of order in {} quantifier at offset 5");
  // The same text as a literal is fine.
  CHECK(std::holds_alternative<SearchPattern>(SearchPattern::compile("(abc", {false, true})));
}

TEST_CASE("searcher: counting only gives the same count", "[searcher]") {
  std::string text;
  for (int i = 0; i < 50'000; ++i) text += (i % 3 == 0 ? "match " : "other ") + std::to_string(i) + "\n";
  const SearchPattern pattern = compiled("match");
  FileSearcher searcher(pattern);
  CollectingSink sink;
  const FileSearchResult reported = searcher.searchBytes(text, &sink);
  const FileSearchResult counted = searcher.searchBytes(text, nullptr);
  CHECK(reported.matchedLines == 16'667);
  CHECK(counted.matchedLines == 16'667);
  CHECK(sink.lines.size() == 16'667);
  CHECK(sink.lines.back() == "49999:match 49998");
}

TEST_CASE("searcher: a sink that returns false stops the file", "[searcher]") {
  const SearchPattern pattern = compiled("foo");
  FileSearcher searcher(pattern);
  CollectingSink sink;
  sink.stopAfter = 2;
  const FileSearchResult result = searcher.searchBytes("foo 1\nfoo 2\nfoo 3\n", &sink);
  CHECK(result.status == Status::Searched);
  CHECK(result.matchedLines == 2);
  CHECK(sink.lines == Lines{"1:foo 1", "2:foo 2"});
  // The searcher is ready for the next file.
  CollectingSink next;
  CHECK(searcher.searchBytes("x\nfoo\n", &next).matchedLines == 1);
  CHECK(next.lines == Lines{"2:foo"});
}

TEST_CASE("searcher: a search stops between blocks once cancelled", "[searcher]") {
  toold::testing::TempDir dir("searcher");
  const auto path = dir.path() / "big.txt";
  std::string text;
  for (int i = 0; text.size() < 2'000'000; ++i) text += "foo " + std::to_string(i) + "\n";
  writeFile(path, text);
  const SearchPattern pattern = compiled("foo");
  FileSearcher searcher(pattern);

  toold::core::CancellationSource before;
  before.cancel();
  CollectingSink none;
  const FileSearchResult cancelledFirst = searcher.search(path, &none, before.token());
  CHECK(cancelledFirst.status == Status::Cancelled);
  CHECK(cancelledFirst.matchedLines == 0);

  struct CancellingSink : CollectingSink {
    toold::core::CancellationSource* source = nullptr;
    bool matched(std::uint64_t lineNumber, std::string_view line) override {
      source->cancel();
      return CollectingSink::matched(lineNumber, line);
    }
  };
  toold::core::CancellationSource during;
  CancellingSink sink;
  sink.source = &during;
  const FileSearchResult cancelledDuring = searcher.search(path, &sink, during.token());
  CHECK(cancelledDuring.status == Status::Cancelled);
  CHECK(cancelledDuring.matchedLines > 0);
  CHECK(cancelledDuring.matchedLines < 100'000); // the first block's lines only
  CHECK(cancelledDuring.matchedLines == sink.lines.size());
}

TEST_CASE("searcher: a file that cannot be read says why", "[searcher]") {
  toold::testing::TempDir dir("searcher");
  const SearchPattern pattern = compiled("x");
  FileSearcher searcher(pattern);
  const FileSearchResult missing = searcher.search(dir.path() / "missing", nullptr, toold::core::CancellationToken());
  CHECK(missing.status == Status::Unreadable);
  CHECK(missing.error == "No such file or directory");
  const FileSearchResult folder = searcher.search(dir.path(), nullptr, toold::core::CancellationToken());
  CHECK(folder.status == Status::Unreadable);
  CHECK(folder.error == "Is a directory");
}

TEST_CASE("searcher: a FIFO, a device or a file of /proc is refused before it is read", "[searcher]") {
  toold::testing::TempDir dir("searcher");
  REQUIRE(::mkfifo((dir.path() / "pipe").c_str(), 0600) == 0);
  const SearchPattern pattern = compiled("x");
  FileSearcher searcher(pattern);
  const auto started = std::chrono::steady_clock::now();
  const FileSearchResult fifo = searcher.search(dir.path() / "pipe", nullptr, toold::core::CancellationToken());
  const FileSearchResult zero = searcher.search("/dev/zero", nullptr, toold::core::CancellationToken());
  const FileSearchResult pagemap = searcher.search("/proc/self/pagemap", nullptr, toold::core::CancellationToken());
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(2));
  CHECK(fifo.status == Status::Unreadable);
  CHECK(fifo.error == "is a FIFO (named pipe)");
  CHECK(zero.status == Status::Unreadable);
  CHECK(zero.error == "is a character device");
  CHECK(pagemap.status == Status::Unreadable);
  CHECK(pagemap.error == "is on the proc pseudo file system");
}

TEST_CASE("searcher: a pattern that backtracks without end skips the line, quickly", "[searcher]") {
  const std::string hard = std::string(40, 'a') + "b";
  const auto started = std::chrono::steady_clock::now();
  CHECK(searchBoth("(a|aa)+$", "aaa\n" + hard + "\naa\n").lines == Lines{"1:aaa", "3:aa"});
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(20));
}

TEST_CASE("searcher: regexes searched for a text they require find what the regex finds", "[searcher]") {
  const std::string text = "ValueError: x\nerror\nKeyError\nvalueerror\n  #  define X\n#include\n";
  CHECK(searchBoth(R"(\w+Error)", text).lines == Lines{"1:ValueError: x", "3:KeyError"});
  CHECK(searchBoth(R"(\w+error)", text, {true, false}).lines == Lines{"1:ValueError: x", "3:KeyError", "4:valueerror"});
  CHECK(searchBoth(R"(^\s*#\s*define)", text).lines == Lines{"5:  #  define X"});
  CHECK(searchBoth(R"(.colou?r)", "color\nxcolor\nxcolour\nxcolr\n").lines == Lines{"2:xcolor", "3:xcolour"});
  CHECK(searchBoth(R"(.ab*c)", "xac\nxabbc\nxbc\n").lines == Lines{"1:xac", "2:xabbc"});
  CHECK(searchBoth(R"(.(ab){2}cd)", "xababcd\nx2}cd\n").lines == Lines{"1:xababcd"});
  CHECK(searchBoth(R"(\w+Err\w*: x$)", text).lines == Lines{"1:ValueError: x"});
  // The text is there, the regex does not match: the line is not reported.
  CHECK(searchBoth(R"(\d+Error)", text).lines.empty());
}

TEST_CASE("searcher: the text a regex requires is read conservatively", "[searcher]") {
  using toold::builtins::search::requiredLiteral;
  CHECK(requiredLiteral(R"(\w+Error)") == "Error");
  CHECK(requiredLiteral(R"(^\s*#\s*define\b)") == "define");
  CHECK(requiredLiteral("colou?r") == "colo");
  CHECK(requiredLiteral("ab*cd") == "cd");
  CHECK(requiredLiteral("abc+d") == "abc");
  CHECK(requiredLiteral("(ab){2}cd") == "cd");
  CHECK(requiredLiteral("a{2,3}bcd") == "bcd");
  CHECK(requiredLiteral(R"(foo\.bar)") == "foo.bar");
  CHECK(requiredLiteral("[abc]+defg[h]") == "defg");
  CHECK(requiredLiteral("[]x]yz") == "yz");
  CHECK(requiredLiteral("\xC3\xA9" "?ab") == "ab");
  CHECK(requiredLiteral("foo|bar").empty());
  CHECK(requiredLiteral("(?i)foo").empty());
  CHECK(requiredLiteral("foo(?!bar)").empty());
  CHECK(requiredLiteral("(*CR)foo").empty());
  CHECK(requiredLiteral(R"(\Qa.b\E)").empty());
  CHECK(requiredLiteral(R"(\x41bc)").empty());
  CHECK(requiredLiteral(R"(\p{L}abc)").empty());
  CHECK(requiredLiteral(R"((a)\1bc)").empty());
  CHECK(requiredLiteral("(abc").empty());
  CHECK(requiredLiteral(R"((\c)abc)?)").empty());
  CHECK(requiredLiteral("[[:alpha:]]+xy") == "xy");
  CHECK(requiredLiteral("[[:]|x:]]abc").empty()); // "[[:]" is the class, then an alternative
}

TEST_CASE("searcher: searching for the required text first changes no result", "[searcher]") {
  // Random patterns and lines; "(?:)" in front makes requiredLiteral() give up, so the same
  // pattern is searched once with the prefilter and once without.
  const std::vector<std::string> pieces = {"a", "b", "c", "ab", "x", "-", " ", "A", R"(\w)", R"(\d)", R"(\s)", ".", "+",
                                           "*", "?", "{2}", "{0,1}", "(", ")", "[ab]", "[^a]", "|", "^", "$", R"(\b)", R"(\.)"};
  const std::string alphabet = "abcxAB.- 1\t";
  std::mt19937 random(20240611);
  const auto pick = [&](std::size_t size) { return static_cast<std::size_t>(random() % size); };
  std::string text;
  for (int line = 0; line < 300; ++line) {
    const std::size_t length = pick(14);
    for (std::size_t i = 0; i < length; ++i) text += alphabet[pick(alphabet.size())];
    text += '\n';
  }
  int compared = 0;
  for (int round = 0; round < 600; ++round) {
    std::string pattern;
    const std::size_t count = 1 + pick(7);
    for (std::size_t i = 0; i < count; ++i) pattern += pieces[pick(pieces.size())];
    const SearchPattern::Options options{round % 3 == 0, false};
    auto withPrefilter = SearchPattern::compile(pattern, options);
    auto without = SearchPattern::compile("(?:)" + pattern, options);
    if (!std::holds_alternative<SearchPattern>(withPrefilter) || !std::holds_alternative<SearchPattern>(without)) continue;
    FileSearcher first(std::get<SearchPattern>(withPrefilter));
    FileSearcher second(std::get<SearchPattern>(without));
    CollectingSink firstLines;
    CollectingSink secondLines;
    first.searchBytes(text, &firstLines);
    second.searchBytes(text, &secondLines);
    INFO("pattern /" << pattern << "/" << (options.caseInsensitive ? "i" : ""));
    CHECK(firstLines.lines == secondLines.lines);
    ++compared;
  }
  CHECK(compared > 300);
}

TEST_CASE("searcher: literals and literal alternations find every line across many blocks", "[searcher]") {
  // Over a megabyte: many blocks of the same size at the same buffer address, each with matches
  // at different offsets. A search that carried where a literal was found from one block into the
  // next would skip lines (this once lost 1% of matches on a large tree).
  std::string text;
  std::mt19937 random(42);
  const std::vector<std::string> words = {"kernel", "thread", "kernel thread", "mutex", "semaphore", "other words"};
  for (int i = 0; i < 40000; ++i) {
    text += "line " + std::to_string(i) + " " + words[random() % words.size()];
    if (random() % 3 == 0) text += " " + words[random() % words.size()];
    text += "\n";
  }
  for (const std::string pattern : {"kernel thread", "mutex|semaphore", "thread|mutex|kernel thread"}) {
    INFO("pattern " << pattern);
    std::vector<std::string> needles;
    for (std::size_t start = 0;;) {
      const auto bar = std::min(pattern.find('|', start), pattern.size());
      needles.push_back(pattern.substr(start, bar - start));
      if (bar == pattern.size()) break;
      start = bar + 1;
    }
    std::uint64_t expected = 0;
    for (std::size_t start = 0; start < text.size();) {
      const auto end = text.find('\n', start);
      const std::string_view line(text.data() + start, end - start);
      if (std::any_of(needles.begin(), needles.end(), [&](const std::string& n) { return line.find(n) != std::string_view::npos; }))
        ++expected;
      start = end + 1;
    }
    const auto outcome = searchBoth(pattern, text);
    CHECK(outcome.matchedLines == expected);
  }
}

TEST_CASE("searcher: one searcher over files of the same size finds each file's own lines", "[searcher]") {
  // The searcher reuses its buffer, so two files of one size are searched at the same address
  // with the same length: nothing found in the first may be taken for the second.
  toold::testing::TempDir dir("searcher");
  writeFile(dir.path() / "a.txt", "zzzzzzzzzzzzzzzzz\nkernel thread one\n");
  writeFile(dir.path() / "b.txt", "kernel thread one\nzzzzzzzzzzzzzzzzz\n");
  for (const std::string pattern : {"kernel thread", "kernel thread|mutex"}) {
    FileSearcher searcher(compiled(pattern));
    CollectingSink first, second;
    searcher.search(dir.path() / "a.txt", &first, {});
    searcher.search(dir.path() / "b.txt", &second, {});
    CHECK(first.lines == std::vector<std::string>{"2:kernel thread one"});
    CHECK(second.lines == std::vector<std::string>{"1:kernel thread one"});
  }
}

TEST_CASE("searcher: a file that keeps the engine past its time budget is given up, lines found before kept",
          "[searcher]") {
  // The line has the "!" the regex requires, so the regex runs on it: each start position scans up
  // to 60,000 letters and the JIT counts none of it against the match limit (15 minutes for 2 MB).
  const std::string text = "ok!\n!" + std::string(2'000'000, 'a') + "\nlater!\n";
  const SearchPattern pattern = compiled("\\p{L}{1,60000}!");
  FileSearcher searcher(pattern);
  CollectingSink sink;
  const auto started = std::chrono::steady_clock::now();
  const FileSearchResult result = searcher.searchBytes(text, &sink);
  const auto took = std::chrono::steady_clock::now() - started;
  CHECK(result.status == Status::TimeLimit);
  CHECK(sink.lines == Lines{"1:ok!"});
  CHECK(result.matchedLines == 1);
  // The budget: 1 s, and 1 s more per 16 MiB read.
  CHECK(took >= std::chrono::milliseconds(900));
  CHECK(took < std::chrono::seconds(5));
  // The next file has a budget of its own.
  CollectingSink next;
  CHECK(searcher.searchBytes("yes!\n", &next).status == Status::Searched);
  CHECK(next.lines == Lines{"1:yes!"});
}

TEST_CASE("searcher: cancellation is seen between calls of the engine, inside one long line", "[searcher]") {
  toold::testing::TempDir dir("searcher");
  const auto path = dir.path() / "letters.txt";
  writeFile(path, "!" + std::string(2'000'000, 'a') + "\n");
  const SearchPattern pattern = compiled("\\p{L}{1,60000}!");
  FileSearcher searcher(pattern);
  toold::core::CancellationSource source;
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    source.cancel();
  });
  const auto started = std::chrono::steady_clock::now();
  const FileSearchResult result = searcher.search(path, nullptr, source.token());
  const auto took = std::chrono::steady_clock::now() - started;
  canceller.join();
  CHECK(result.status == Status::Cancelled);
  CHECK(took < std::chrono::milliseconds(600)); // well before the 1 s budget
}
