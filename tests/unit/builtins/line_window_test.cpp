#include "builtins/files/line_window.h"
#include "tests/support/temp_dir.h"

#include <catch2/catch.hpp>
#include <xxhash.h>

#include <fstream>
#include <ostream>
#include <string>
#include <variant>
#include <vector>

using toold::builtins::contentHash;
using toold::builtins::fileIdentity;
using toold::builtins::kLineCutSuffix;
using toold::builtins::LineIndex;
using toold::builtins::LineIndexCache;
using toold::builtins::LineWindow;
using toold::builtins::LineWindowError;
using toold::builtins::LineWindowRequest;
using toold::builtins::readLineWindow;
using toold::testing::TempDir;

namespace {

std::filesystem::path writeFile(const TempDir& dir, const std::string& name, const std::string& bytes) {
  auto path = dir.path() / name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return path;
}

LineWindow readWindow(const std::filesystem::path& path, LineWindowRequest request, LineIndexCache& cache) {
  auto result = readLineWindow(path, request, cache, toold::core::CancellationToken());
  if (auto* error = std::get_if<LineWindowError>(&result))
    FAIL("readLineWindow failed: " << error->message);
  return std::get<LineWindow>(result);
}

LineWindow readWindow(const std::filesystem::path& path, LineWindowRequest request = {}) {
  LineIndexCache cache;
  return readWindow(path, request, cache);
}

LineWindowRequest window(std::uint64_t offset, std::uint64_t limit) {
  LineWindowRequest request;
  request.offset = offset;
  request.limit = limit;
  return request;
}

using Lines = std::vector<std::string>;

} // namespace

namespace toold::builtins {
// How Catch shows a window's lines when a check fails.
std::ostream& operator<<(std::ostream& out, const WindowLines& lines) {
  out << '{';
  for (std::size_t i = 0; i < lines.size(); ++i) out << (i > 0 ? ", \"" : "\"") << lines[i] << '"';
  return out << '}';
}
} // namespace toold::builtins

TEST_CASE("line window: line counting follows the final newline rule", "[files]") {
  TempDir dir("line_window");
  struct Case {
    std::string bytes;
    std::uint64_t total;
    Lines lines;
  };
  const std::vector<Case> cases = {
      {"", 0, {}},
      {"a", 1, {"a"}},
      {"a\n", 1, {"a"}},
      {"a\nb", 2, {"a", "b"}},
      {"a\n\n", 2, {"a", ""}},
      {"\n", 1, {""}},
  };
  for (const auto& c : cases) {
    auto result = readWindow(writeFile(dir, "f.txt", c.bytes));
    CAPTURE(c.bytes);
    CHECK(result.totalLines == c.total);
    CHECK(result.lines == c.lines);
    CHECK(result.firstLine == 1);
    CHECK_FALSE(result.more);
    CHECK_FALSE(result.cutByBytes);
  }
}

TEST_CASE("line window: CRLF line ends lose the carriage return, inner ones stay", "[files]") {
  TempDir dir("line_window");
  auto result = readWindow(writeFile(dir, "crlf.txt", "one\r\ntwo\r\nth\rree\r\n\r\nlast"));
  CHECK(result.totalLines == 5);
  CHECK(result.lines == Lines{"one", "two", "th\rree", "", "last"});
}

TEST_CASE("line window: offset and limit select a window in the middle", "[files]") {
  TempDir dir("line_window");
  std::string content;
  for (int i = 1; i <= 10; ++i)
    content += "line" + std::to_string(i) + "\n";
  auto path = writeFile(dir, "ten.txt", content);

  auto middle = readWindow(path, window(4, 3));
  CHECK(middle.firstLine == 4);
  CHECK(middle.lines == Lines{"line4", "line5", "line6"});
  CHECK(middle.totalLines == 10);
  CHECK(middle.more);
  CHECK_FALSE(middle.cutByBytes);

  auto tail = readWindow(path, window(8, 5));
  CHECK(tail.lines == Lines{"line8", "line9", "line10"});
  CHECK_FALSE(tail.more);

  auto exact = readWindow(path, window(9, 2));
  CHECK(exact.lines == Lines{"line9", "line10"});
  CHECK_FALSE(exact.more);

  auto last = readWindow(path, window(10, 100));
  CHECK(last.lines == Lines{"line10"});
}

TEST_CASE("line window: an offset past the end gives no lines", "[files]") {
  TempDir dir("line_window");
  auto path = writeFile(dir, "three.txt", "a\nb\nc\n");
  auto result = readWindow(path, window(4, 10));
  CHECK(result.firstLine == 4);
  CHECK(result.lines.empty());
  CHECK(result.totalLines == 3);
  CHECK_FALSE(result.more);
  CHECK(readWindow(path, window(1000, 10)).lines.empty());
}

TEST_CASE("line window: long lines are cut at maxLineChars code points", "[files]") {
  TempDir dir("line_window");
  // "héllo wörld" is 11 code points; the emoji line is 6 code points of 4 bytes each.
  auto path = writeFile(dir, "long.txt",
                        "h\xC3\xA9llo w\xC3\xB6rld\n"
                        "h\xC3\xA9llo\n"
                        "\xF0\x9F\x98\x80\xF0\x9F\x98\x80\xF0\x9F\x98\x80\xF0\x9F\x98\x80\xF0\x9F\x98\x80\xF0\x9F\x98\x80\n"
                        "12345\r\n");
  LineWindowRequest request;
  request.maxLineChars = 5;
  auto result = readWindow(path, request);
  const std::string suffix(kLineCutSuffix);
  CHECK(result.lines == Lines{"h\xC3\xA9llo" + suffix, "h\xC3\xA9llo",
                              "\xF0\x9F\x98\x80\xF0\x9F\x98\x80\xF0\x9F\x98\x80\xF0\x9F\x98\x80\xF0\x9F\x98\x80" + suffix,
                              "12345"});
  CHECK(result.totalLines == 4);
}

TEST_CASE("line window: plain ASCII lines up to maxLineChars are taken whole and longer ones cut", "[files]") {
  TempDir dir("line_window");
  // Whole lines of plain ASCII are taken as they are; one a character too long, or holding a
  // carriage return, goes through the line builder.
  auto path = writeFile(dir, "ascii.txt", "abcde\nabcdef\nabc\n\nab\rc\nabcd\r\nabcde");
  LineWindowRequest request;
  request.maxLineChars = 5;
  auto result = readWindow(path, request);
  const std::string suffix(kLineCutSuffix);
  CHECK(result.lines == Lines{"abcde", "abcde" + suffix, "abc", "", "ab\rc", "abcd", "abcde"});
  CHECK(result.totalLines == 7);
}

TEST_CASE("line window: the byte budget stops before the line that would pass it", "[files]") {
  TempDir dir("line_window");
  std::string content;
  for (int i = 0; i < 10; ++i)
    content += "aaaa\n";
  auto path = writeFile(dir, "budget.txt", content);

  LineWindowRequest request;
  request.maxBytes = 14; // 4 + (1 + 4) + (1 + 4): exactly three lines
  auto three = readWindow(path, request);
  CHECK(three.lines.size() == 3);
  CHECK(three.cutByBytes);
  CHECK(three.more);

  request.maxBytes = 13;
  auto two = readWindow(path, request);
  CHECK(two.lines.size() == 2);
  CHECK(two.cutByBytes);
  CHECK(two.more);

  request.maxBytes = 49; // all ten lines joined
  auto all = readWindow(path, request);
  CHECK(all.lines.size() == 10);
  CHECK_FALSE(all.cutByBytes);
  CHECK_FALSE(all.more);

  request.maxBytes = 3; // not even the first line
  auto none = readWindow(path, request);
  CHECK(none.lines.empty());
  CHECK(none.cutByBytes);
  CHECK(none.more);
}

TEST_CASE("line window: invalid UTF-8 is shown as U+FFFD per ill-formed subsequence", "[files]") {
  TempDir dir("line_window");
  auto path = writeFile(dir, "bad.txt",
                        "a\xFF" "b\n"          // a stray byte
                        "\xE2\x82x\n"          // a truncated 3-byte sequence: one replacement
                        "\xC0\xAF\n"           // an overlong lead and a lone continuation: two
                        "\xED\xA0\x80\n"       // a surrogate: three
                        "ok \xE2\x82\xAC\n"    // a valid euro sign stays
                        "end\xF0\x9F");        // cut off at the end of the file
  const std::string r = "\xEF\xBF\xBD";
  auto result = readWindow(path);
  CHECK(result.lines == Lines{"a" + r + "b", r + "x", r + r, r + r + r, "ok \xE2\x82\xAC", "end" + r});
}

TEST_CASE("line window: a 10 MB line is cut and the next line still found", "[files]") {
  TempDir dir("line_window");
  std::string content(10 * 1024 * 1024, 'x');
  content += "\nend\n";
  auto path = writeFile(dir, "huge_line.txt", content);
  auto result = readWindow(path);
  REQUIRE(result.lines.size() == 2);
  CHECK(result.lines[0] == std::string(2000, 'x') + std::string(kLineCutSuffix));
  CHECK(result.lines[1] == "end");
  CHECK(result.totalLines == 2);
  CHECK(result.contentHash == contentHash(content));
}

TEST_CASE("line window: a window deep in a large file is found through the checkpoints", "[files]") {
  TempDir dir("line_window");
  std::string content;
  for (int i = 1; i <= 100000; ++i)
    content += "line " + std::to_string(i) + "\n";
  auto path = writeFile(dir, "big.txt", content);
  LineIndexCache cache;

  auto result = readWindow(path, window(50000, 100), cache);
  REQUIRE(result.lines.size() == 100);
  for (std::size_t i = 0; i < result.lines.size(); ++i)
    CHECK(result.lines[i] == "line " + std::to_string(50000 + i));
  CHECK(result.totalLines == 100000);
  CHECK(result.more);

  auto index = cache.find(path, *fileIdentity(path));
  REQUIRE(index);
  // About 1 MB: line 1, then a checkpoint every 4,253 bytes (a 256th of the file), each where its
  // line starts.
  CHECK(index->checkpoints.size() == 256);
  CHECK(index->checkpoints[0].line == 1);
  CHECK(index->checkpoints[0].offset == 0);
  for (const auto& checkpoint : index->checkpoints) {
    const std::string line = "line " + std::to_string(checkpoint.line) + "\n";
    CHECK(content.compare(checkpoint.offset, line.size(), line) == 0);
  }
  const std::uint64_t boundary = index->checkpoints[100].line;
  CHECK(index->checkpoints[1].offset == content.find("line " + std::to_string(index->checkpoints[1].line) + "\n"));

  // Around a checkpoint boundary.
  CHECK(readWindow(path, window(boundary - 1, 2), cache).lines ==
        Lines{"line " + std::to_string(boundary - 1), "line " + std::to_string(boundary)});
  CHECK(readWindow(path, window(boundary, 1), cache).lines == Lines{"line " + std::to_string(boundary)});
  auto end = readWindow(path, window(99999, 10), cache);
  CHECK(end.lines == Lines{"line 99999", "line 100000"});
  CHECK_FALSE(end.more);
}

TEST_CASE("line window: the index is reused while the file is unchanged", "[files]") {
  TempDir dir("line_window");
  auto path = writeFile(dir, "cached.txt", "a\nb\nc\n");
  LineIndexCache cache;
  auto first = readWindow(path, window(1, 1), cache);
  auto index = cache.find(path, *fileIdentity(path));
  REQUIRE(index);
  CHECK(index->totalLines == 3);
  CHECK(index->contentHash == first.contentHash);

  auto second = readWindow(path, window(2, 1), cache);
  CHECK(second.lines == Lines{"b"});
  CHECK(second.contentHash == first.contentHash);
  CHECK(second.identity == first.identity);
  CHECK(cache.find(path, *fileIdentity(path)) == index); // the same entry, not a rebuilt one
}

TEST_CASE("line window: a changed file is indexed again", "[files]") {
  TempDir dir("line_window");
  auto path = writeFile(dir, "changing.txt", "a\nb\n");
  LineIndexCache cache;
  auto before = readWindow(path, {}, cache);
  CHECK(before.totalLines == 2);
  const auto oldIdentity = *fileIdentity(path);

  writeFile(dir, "changing.txt", "a\nb\nc\nd\n");
  const auto newIdentity = *fileIdentity(path);
  REQUIRE_FALSE(newIdentity == oldIdentity);
  CHECK(cache.find(path, newIdentity) == nullptr);
  CHECK(cache.find(path, oldIdentity) == nullptr); // the stale entry was dropped

  auto after = readWindow(path, {}, cache);
  CHECK(after.totalLines == 4);
  CHECK(after.lines == Lines{"a", "b", "c", "d"});
  CHECK(after.contentHash == contentHash("a\nb\nc\nd\n"));
  CHECK(after.contentHash != before.contentHash);
  CHECK(after.identity == newIdentity);
  REQUIRE(cache.find(path, newIdentity));
}

TEST_CASE("line window: the cache keeps the most recently used entries", "[files]") {
  auto entry = [](std::uint64_t inode) {
    auto index = std::make_shared<LineIndex>();
    index->identity.inode = inode;
    return index;
  };
  LineIndexCache cache(2);
  toold::builtins::FileIdentity one, two, three;
  one.inode = 1;
  two.inode = 2;
  three.inode = 3;
  cache.store("/one", entry(1));
  cache.store("/two", entry(2));
  CHECK(cache.find("/one", one)); // now most recent
  cache.store("/three", entry(3));
  CHECK(cache.find("/two", two) == nullptr);
  CHECK(cache.find("/one", one));
  CHECK(cache.find("/three", three));
}

TEST_CASE("line window: the content hash is XXH3-64 of the file", "[files]") {
  TempDir dir("line_window");
  const std::string content = "hello\nworld\n\xC3\xA9";
  auto result = readWindow(writeFile(dir, "hash.txt", content));
  CHECK(result.contentHash == XXH3_64bits(content.data(), content.size()));
  CHECK(contentHash(content) == XXH3_64bits(content.data(), content.size()));
  CHECK(contentHash("") == 0x2D06800538D394C2ULL);
  CHECK(readWindow(writeFile(dir, "empty.txt", "")).contentHash == 0x2D06800538D394C2ULL);
}

TEST_CASE("line window: a cancelled token stops the read", "[files]") {
  TempDir dir("line_window");
  auto path = writeFile(dir, "cancel.txt", "a\nb\n");
  toold::core::CancellationSource source;
  source.cancel("cancelled by the client");
  LineIndexCache cache;
  auto result = readLineWindow(path, {}, cache, source.token());
  REQUIRE(std::holds_alternative<LineWindowError>(result));
  CHECK(std::get<LineWindowError>(result).cancelled);
  CHECK(cache.find(path, *fileIdentity(path)) == nullptr);
}

TEST_CASE("line window: system errors carry the system's reason", "[files]") {
  TempDir dir("line_window");
  LineIndexCache cache;
  auto result = readLineWindow(dir.path() / "missing.txt", {}, cache, toold::core::CancellationToken());
  REQUIRE(std::holds_alternative<LineWindowError>(result));
  CHECK(std::get<LineWindowError>(result).message == "No such file or directory");
  CHECK_FALSE(std::get<LineWindowError>(result).cancelled);
  CHECK_FALSE(fileIdentity(dir.path() / "missing.txt"));
}

TEST_CASE("line window: fileIdentity follows symbolic links", "[files]") {
  TempDir dir("line_window");
  auto path = writeFile(dir, "target.txt", "abc");
  std::filesystem::create_symlink(path, dir.path() / "link.txt");
  auto target = fileIdentity(path);
  auto link = fileIdentity(dir.path() / "link.txt");
  REQUIRE(target);
  REQUIRE(link);
  CHECK(*target == *link);
  CHECK(target->size == 3);
}

TEST_CASE("line window: long lines get a checkpoint every 256th of the file, so a window never reads far before it", "[files]") {
  TempDir dir("line_window");
  std::string content;
  for (int i = 1; i <= 3000; ++i) {
    std::string number = std::to_string(i);
    content += number + std::string(999 - number.size(), '.') + "\n"; // 1000 bytes a line
  }
  auto path = writeFile(dir, "wide.txt", content);
  LineIndexCache cache;
  auto result = readWindow(path, window(2500, 3), cache);
  REQUIRE(result.lines.size() == 3);
  CHECK(result.lines[0].starts_with("2500."));
  CHECK(result.lines[2].starts_with("2502."));
  auto index = cache.find(path, *fileIdentity(path));
  REQUIRE(index);
  // 3,000,000 bytes: line 1, then the first line starting at or after 11,718 bytes since the last.
  const std::uint64_t spacing = LineIndex::bytesPerCheckpoint(content.size());
  CHECK(spacing == 3'000'000 / 256);
  CHECK(index->checkpoints.size() == 251); // every 12 lines of 1000 bytes, and one past the last line
  for (std::size_t k = 1; k < index->checkpoints.size(); ++k) {
    const auto& checkpoint = index->checkpoints[k];
    CHECK(checkpoint.offset == (checkpoint.line - 1) * 1000);
    CHECK(checkpoint.offset - index->checkpoints[k - 1].offset >= spacing);
    CHECK(checkpoint.offset - index->checkpoints[k - 1].offset < spacing + 1000);
  }
}

TEST_CASE("line window: checkpoints are 4 KiB apart at least and 1 MiB at most", "[files]") {
  CHECK(LineIndex::bytesPerCheckpoint(0) == 4096);
  CHECK(LineIndex::bytesPerCheckpoint(72'000) == 4096);
  CHECK(LineIndex::bytesPerCheckpoint(10'000'000) == 10'000'000 / 256);
  CHECK(LineIndex::bytesPerCheckpoint(std::uint64_t{1} << 30) == std::uint64_t{1} << 20);
  CHECK(LineIndex::bytesPerCheckpoint(std::uint64_t{1} << 40) == std::uint64_t{1} << 20);
}

TEST_CASE("line window: every window of a mixed file is the lines a plain split gives", "[files]") {
  // Lines of every length from empty to 9 KiB (several checkpoints apart), so that windows start
  // before, at and after checkpoints and outrun the first read's guess; no final newline.
  std::string content;
  Lines expected;
  std::uint32_t seed = 7;
  auto next = [&seed] { return seed = seed * 1664525u + 1013904223u; };
  while (content.size() < 200'000) {
    const auto kind = next() % 100;
    const std::size_t length = kind < 70 ? next() % 80 : kind < 97 ? 80 + next() % 400 : 2000 + next() % 7000;
    std::string line(length, static_cast<char>('a' + next() % 26));
    if (!line.empty()) line.front() = 'x'; // not all one letter: a misplaced window shows
    expected.push_back(line);
    content += line + "\n";
  }
  content += "the tail";
  expected.push_back("the tail");
  TempDir dir("line_window");
  auto path = writeFile(dir, "mixed.txt", content);
  LineIndexCache cache;
  for (std::uint64_t limit : {1u, 7u, 100u, 2000u}) {
    for (std::uint64_t offset = 1; offset <= expected.size(); offset += 1 + next() % 37) {
      INFO("offset " << offset << ", limit " << limit);
      LineWindowRequest request = window(offset, limit);
      request.maxBytes = std::size_t{1} << 30;
      request.maxLineChars = 100'000;
      auto result = readWindow(path, request, cache);
      const std::uint64_t end = std::min<std::uint64_t>(offset - 1 + limit, expected.size());
      REQUIRE(result.lines.size() == end - (offset - 1));
      for (std::uint64_t k = 0; k < result.lines.size(); ++k) REQUIRE(result.lines[k] == expected[offset - 1 + k]);
      CHECK(result.totalLines == expected.size());
      CHECK(result.more == (end < expected.size()));
    }
  }
}

TEST_CASE("line window: checkpoints fall where a newline-by-newline walk puts them", "[files]") {
  // Short lines (line-count checkpoints), long ones (byte checkpoints, some inside one 64-byte
  // block and some at a block's edge), a 1 MiB block boundary crossed mid-line, and no final newline.
  std::string content;
  // (A line checkpoint needs 16,384 lines within a 256th of the file: lines of a byte or two.)
  for (int i = 0; content.size() < 2'000'000; ++i) content += std::string(i % 3, 'd') + "\n";
  std::uint32_t seed = 12345;
  auto next = [&seed] { return seed = seed * 1664525u + 1013904223u; };
  while (content.size() < 12'000'000) {
    const auto kind = next() % 10'000;
    const std::size_t length = kind < 6'000   ? next() % 40
                               : kind < 9'900 ? 60 + next() % 80
                               : kind < 9'998 ? 1000 + next() % 5000
                                              : 200'000 + next() % 900'000;
    content.append(length, static_cast<char>('a' + next() % 26));
    content += '\n';
  }
  content += "tail without newline";
  TempDir dir("line_window");
  auto path = writeFile(dir, "mixed.txt", content);
  LineIndexCache cache;
  auto result = readWindow(path, window(1, 1), cache);

  std::vector<LineIndex::Checkpoint> expected{{1, 0}};
  std::uint64_t newlines = 0;
  for (std::size_t at = 0; at < content.size(); ++at) {
    if (content[at] != '\n') continue;
    ++newlines;
    const std::uint64_t offset = at + 1;
    if (newlines + 1 - expected.back().line >= LineIndex::kLinesPerCheckpoint ||
        offset - expected.back().offset >= LineIndex::bytesPerCheckpoint(content.size()))
      expected.push_back({newlines + 1, offset});
  }
  auto index = cache.find(path, *fileIdentity(path));
  REQUIRE(index);
  CHECK(result.totalLines == newlines + 1);
  REQUIRE(index->checkpoints.size() == expected.size());
  std::size_t byLines = 0;
  for (std::size_t i = 1; i < expected.size(); ++i) byLines += expected[i].line - expected[i - 1].line == LineIndex::kLinesPerCheckpoint;
  CHECK(byLines >= 5);                         // checkpoints set by the line count
  CHECK(expected.size() - 1 - byLines >= 5);   // and by the bytes
  for (std::size_t i = 0; i < expected.size(); ++i) {
    INFO("checkpoint " << i);
    CHECK(index->checkpoints[i].line == expected[i].line);
    CHECK(index->checkpoints[i].offset == expected[i].offset);
  }
}
