#include "builtins/shell/output_digest.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

using toold::builtins::cleanTerminalText;
using toold::builtins::DigestLimits;
using toold::builtins::OutputDigest;

namespace {

const std::string kEllipsis = "\u2026";

std::uint64_t newlinesIn(std::string_view text) {
  return static_cast<std::uint64_t>(std::count(text.begin(), text.end(), '\n'));
}

/// Lines as the digest counts them: the '\n' count, plus one for an unterminated last line.
std::uint64_t linesIn(std::string_view text) {
  return newlinesIn(text) + (text.empty() || text.back() == '\n' ? 0 : 1);
}

/// The offset just after the `count`-th '\n' of `raw` (0 for none).
std::size_t afterNewline(std::string_view raw, std::uint64_t count) {
  std::size_t at = 0;
  for (std::uint64_t i = 0; i < count; ++i) at = raw.find('\n', at) + 1;
  return at;
}

bool isContinuation(char byte) { return (static_cast<unsigned char>(byte) & 0xC0) == 0x80; }

std::string omission(std::uint64_t lines, const std::string& size) {
  return "[" + kEllipsis + " " + std::to_string(lines) + " lines (" + size + ") omitted " + kEllipsis + "]\n";
}

/// The size in an omission line must be `bytes`, exactly below 1024, else within rounding.
void checkSizeText(const std::string& size, std::uint64_t bytes) {
  INFO("size text '" << size << "' for " << bytes << " bytes");
  if (bytes < 1024) {
    CHECK(size == std::to_string(bytes) + " B");
    return;
  }
  const auto space = size.find(' ');
  REQUIRE(space != std::string::npos);
  const std::string number = size.substr(0, space);
  const std::string unit = size.substr(space + 1);
  REQUIRE(number.size() >= 3);
  CHECK(number[number.size() - 2] == '.');
  const double value = std::strtod(number.c_str(), nullptr);
  double unitBytes = 0;
  if (unit == "KiB") unitBytes = 1024.0;
  if (unit == "MiB") unitBytes = 1024.0 * 1024.0;
  if (unit == "GiB") unitBytes = 1024.0 * 1024.0 * 1024.0;
  REQUIRE(unitBytes > 0);
  CHECK(value < 1024.0);
  CHECK(std::abs(value * unitBytes - static_cast<double>(bytes)) <= 0.05 * unitBytes + 1.0);
}

/// Checks a rendering of `raw` against what it must be, computed from the raw bytes alone: the
/// limits hold; untruncated, it is the whole cleaned text; truncated, the head is the cleaned
/// first lines, the tail the cleaned last ones, and the counts are those of the raw bytes between.
void checkRendered(std::string_view raw, const DigestLimits& limits, const OutputDigest::Rendered& rendered) {
  const std::string& text = rendered.text;
  INFO("rendered: " << text);
  REQUIRE(text.size() <= limits.maxBytes);
  REQUIRE(linesIn(text) <= limits.maxLines);
  if (!rendered.truncated) {
    CHECK(text == cleanTerminalText(raw, limits.maxLineBytes));
    CHECK(rendered.omittedLines == 0);
    CHECK(rendered.omittedBytes == 0);
    return;
  }
  if (raw.size() <= limits.tailWindowBytes) {
    // Nothing was ever dropped, so it was truncated only because the whole does not fit.
    const std::string whole = cleanTerminalText(raw, limits.maxLineBytes);
    CHECK((whole.size() > limits.maxBytes || linesIn(whole) > limits.maxLines));
  }

  // The omission line is the first line starting with "[… " (a cut line's marker is inside it).
  const std::string marker = "[" + kEllipsis + " ";
  std::size_t at = std::string::npos;
  for (std::size_t line = 0; line < text.size();) {
    if (text.compare(line, marker.size(), marker) == 0) {
      at = line;
      break;
    }
    line = text.find('\n', line);
    if (line != std::string::npos) ++line;
  }
  REQUIRE(at != std::string::npos);
  const std::size_t lineEnd = text.find('\n', at);
  REQUIRE(lineEnd != std::string::npos);
  const std::string omissionText = text.substr(at, lineEnd + 1 - at);
  const std::string headPart = at == 0 ? "" : text.substr(0, at - 1);
  const std::string tail = text.substr(lineEnd + 1);

  const std::uint64_t totalNewlines = newlinesIn(raw);
  const std::uint64_t headShown = at == 0 ? 0 : newlinesIn(headPart) + 1;
  REQUIRE(headShown <= totalNewlines);
  const std::size_t headEnd = afterNewline(raw, headShown);
  std::string headCleaned = cleanTerminalText(raw.substr(0, headEnd), limits.maxLineBytes);
  if (!headCleaned.empty()) headCleaned.pop_back();
  if (headShown > 1) {
    CHECK(headPart == headCleaned);
  } else if (headShown == 1) {
    // The first line may be cut, at a character boundary.
    REQUIRE(headCleaned.compare(0, headPart.size(), headPart) == 0);
    if (headPart.size() < headCleaned.size()) CHECK_FALSE(isContinuation(headCleaned[headPart.size()]));
  }

  std::size_t tailStart = raw.size();
  if (!tail.empty()) {
    const std::uint64_t tailNewlines = newlinesIn(tail);
    REQUIRE(tailNewlines + headShown <= totalNewlines);
    const std::size_t lineStart = afterNewline(raw, totalNewlines - tailNewlines);
    const std::size_t ringBegin = raw.size() - std::min(raw.size(), limits.tailWindowBytes);
    tailStart = lineStart;
    if (lineStart < ringBegin) {
      // The tail's line began before the ring: it starts at the ring's first character.
      tailStart = ringBegin;
      while (tailStart < ringBegin + 3 && tailStart < raw.size() && isContinuation(raw[tailStart])) ++tailStart;
    }
    REQUIRE(tailStart >= headEnd);
    const std::string expected = cleanTerminalText(raw.substr(tailStart), limits.maxLineBytes);
    if (tail != expected) {
      // The last line alone, too long: its end, from a character boundary.
      REQUIRE(expected.size() > tail.size());
      CHECK(expected.compare(expected.size() - tail.size(), tail.size(), tail) == 0);
      CHECK(tailNewlines == (expected.back() == '\n' ? 1U : 0U));
      CHECK_FALSE(isContinuation(tail[0]));
    }
  }
  REQUIRE(tailStart >= headEnd);
  std::uint64_t omittedLines = newlinesIn(raw.substr(headEnd, tailStart - headEnd));
  if (tail.empty() && raw.size() > headEnd && raw.back() != '\n') ++omittedLines;
  CHECK(rendered.omittedLines == omittedLines);
  CHECK(rendered.omittedBytes == tailStart - headEnd);

  const std::string prefix = "[" + kEllipsis + " " + std::to_string(omittedLines) + " lines (";
  const std::string suffix = ") omitted " + kEllipsis + "]\n";
  REQUIRE(omissionText.compare(0, prefix.size(), prefix) == 0);
  REQUIRE(omissionText.size() > prefix.size() + suffix.size());
  REQUIRE(omissionText.compare(omissionText.size() - suffix.size(), suffix.size(), suffix) == 0);
  checkSizeText(omissionText.substr(prefix.size(), omissionText.size() - prefix.size() - suffix.size()),
                tailStart - headEnd);
}

OutputDigest digestOf(std::string_view raw, const DigestLimits& limits, std::size_t chunk = 64 * 1024) {
  OutputDigest digest(limits);
  for (std::size_t at = 0; at < raw.size(); at += chunk) digest.append(raw.substr(at, chunk));
  return digest;
}

std::string numberedLines(int from, int to) {
  std::string text;
  for (int i = from; i <= to; ++i) text += "line" + std::to_string(i) + "\n";
  return text;
}

/// Random terminal output: lines of words, UTF-8, escape codes, redraws, backspaces; now and then
/// a very long line, CRLF ends, no final newline, or no newline at all.
std::string randomOutput(std::mt19937& random) {
  static const std::vector<std::string> pieces = {
      "word ", "x", "0123456789", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\t", "\x1b[1;32m",
      "\x1b[0m", "\x1b]8;;https://x.org\x07", "\x1b]8;;\x1b\\", "\r", "\b", "\x1b(B", "\xff",
  };
  const auto pick = [&](std::size_t low, std::size_t high) {
    return std::uniform_int_distribution<std::size_t>(low, high)(random);
  };
  std::string out;
  const std::size_t lines = pick(0, 3) == 0 ? pick(0, 5) : pick(0, 400);
  const bool noNewlines = pick(0, 15) == 0;
  for (std::size_t line = 0; line < lines; ++line) {
    const std::size_t length = pick(0, 30) == 0 ? pick(100, 6000) : pick(0, 25);
    for (std::size_t i = 0; i < length; ++i) out += pieces[pick(0, 3) == 0 ? pick(0, pieces.size() - 1) : pick(0, 2)];
    if (!noNewlines && (line + 1 < lines || pick(0, 4) != 0)) out += pick(0, 5) == 0 ? "\r\n" : "\n";
  }
  return out;
}

DigestLimits randomLimits(std::mt19937& random) {
  const auto pick = [&](std::size_t low, std::size_t high) {
    return std::uniform_int_distribution<std::size_t>(low, high)(random);
  };
  DigestLimits limits;
  limits.maxBytes = pick(60, 4000);
  limits.maxLines = pick(1, 60);
  limits.headBytes = pick(1, limits.maxBytes / 2);
  limits.headLines = pick(1, limits.maxLines);
  limits.tailWindowBytes = pick(0, 12) == 0 ? pick(0, 50) : pick(100, 20000);
  limits.maxLineBytes = pick(1, 600);
  return limits;
}

} // namespace

TEST_CASE("digest: output that fits is shown whole", "[digest]") {
  const std::string raw = "\x1b[32mok\x1b[0m 1\r\nstep 10%\rstep 100%\nlast";
  for (const std::size_t chunk : {std::size_t{1}, std::size_t{3}, std::size_t{64 * 1024}}) {
    const OutputDigest digest = digestOf(raw, {}, chunk);
    const OutputDigest::Rendered rendered = digest.render();
    CHECK(rendered.text == "ok 1\nstep 100%\nlast");
    CHECK_FALSE(rendered.truncated);
    CHECK(rendered.omittedLines == 0);
    CHECK(rendered.omittedBytes == 0);
    CHECK(digest.totalBytes() == raw.size());
    CHECK(digest.totalLines() == 3);
  }
  CHECK(OutputDigest().render().text.empty());
  CHECK(OutputDigest().totalLines() == 0);
  CHECK(digestOf("a\n", {}).totalLines() == 1);
  CHECK(digestOf("a\nb", {}).totalLines() == 2);
  CHECK(digestOf("\n\n", {}).render().text == "\n\n");
}

TEST_CASE("digest: the limits are inclusive", "[digest]") {
  DigestLimits limits;
  limits.maxLines = 5;
  const OutputDigest five = digestOf(numberedLines(1, 5), limits);
  CHECK_FALSE(five.render().truncated);
  CHECK(digestOf(numberedLines(1, 4) + "line5", limits).render().text == numberedLines(1, 4) + "line5");
  CHECK(digestOf(numberedLines(1, 6), limits).render().truncated);

  limits = {};
  const std::string raw = numberedLines(1, 50);
  limits.maxBytes = raw.size();
  CHECK_FALSE(digestOf(raw, limits).render().truncated);
  limits.maxBytes = raw.size() - 1;
  CHECK(digestOf(raw, limits).render().truncated);
}

TEST_CASE("digest: escape codes and redraws cleaned away can make large output fit", "[digest]") {
  std::string raw;
  for (int i = 0; i <= 100; ++i) raw += "\r\x1b[2K\x1b[36mdownloading\x1b[0m " + std::to_string(i) + "%";
  raw += "\ndone\n";
  DigestLimits limits;
  limits.maxBytes = 100;
  const OutputDigest::Rendered rendered = digestOf(raw, limits, 7).render();
  CHECK_FALSE(rendered.truncated);
  CHECK(rendered.text == "downloading 100%\ndone\n");
}

TEST_CASE("digest: head, omission line, tail", "[digest]") {
  DigestLimits limits{.maxLines = 6, .maxBytes = 1000, .headLines = 2, .headBytes = 100, .tailWindowBytes = 1000};
  const std::string raw = numberedLines(1, 20);
  for (const std::size_t chunk : {std::size_t{1}, std::size_t{5}, raw.size()}) {
    const OutputDigest::Rendered rendered = digestOf(raw, limits, chunk).render();
    CHECK(rendered.text == "line1\nline2\n" + omission(15, "98 B") + "line18\nline19\nline20\n");
    CHECK(rendered.truncated);
    CHECK(rendered.omittedLines == 15);
    CHECK(rendered.omittedBytes == 98);
    checkRendered(raw, limits, rendered);
  }
  // Without a final newline, the tail ends as the output does.
  const std::string unterminated = raw + "line21";
  CHECK(digestOf(unterminated, limits).render().text ==
        "line1\nline2\n" + omission(16, "105 B") + "line19\nline20\nline21");
}

TEST_CASE("digest: the tail starts at a line in the ring after what was dropped", "[digest]") {
  DigestLimits limits{.maxLines = 100, .maxBytes = 1000, .headLines = 1, .headBytes = 100};
  limits.tailWindowBytes = 25; // starts with "97\n", the end of a line whose start was dropped
  const std::string raw = numberedLines(1, 100);
  const OutputDigest::Rendered rendered = digestOf(raw, limits, 3).render();
  CHECK(rendered.text == "line1\n" + omission(96, "664 B") + "line98\nline99\nline100\n");
  checkRendered(raw, limits, rendered);
}

TEST_CASE("digest: a first line larger than the head's share is cut", "[digest]") {
  DigestLimits limits{.maxLines = 10, .maxBytes = 200, .headLines = 3, .headBytes = 20, .tailWindowBytes = 1000};
  std::string raw = std::string(50, 'A') + "\n";
  for (int i = 1; i <= 30; ++i) raw += "l" + std::to_string(i) + "\n";
  std::string tail;
  for (int i = 23; i <= 30; ++i) tail += "l" + std::to_string(i) + "\n";
  OutputDigest::Rendered rendered = digestOf(raw, limits).render();
  CHECK(rendered.text == std::string(20, 'A') + "\n" + omission(22, "79 B") + tail);
  checkRendered(raw, limits, rendered);

  // Cut at a character boundary: 21 bytes of "é" keep 10 of them.
  std::string accents;
  for (int i = 0; i < 30; ++i) accents += "\xc3\xa9";
  limits.headBytes = 21;
  rendered = digestOf(accents + raw.substr(50), limits).render();
  CHECK(rendered.text.substr(0, 21) == accents.substr(0, 20) + "\n");
  checkRendered(accents + raw.substr(50), limits, rendered);
}

TEST_CASE("digest: a last line larger than what is left keeps its end", "[digest]") {
  DigestLimits limits{.maxLines = 10, .maxBytes = 120, .headLines = 2, .headBytes = 20, .tailWindowBytes = 10000};
  std::string euros;
  for (int i = 0; i < 100; ++i) euros += "\xe2\x82\xac";
  const std::string raw = "h1\nh2\nh3\n" + euros + "\n";
  const OutputDigest::Rendered rendered = digestOf(raw, limits).render();
  CHECK(rendered.text == "h1\nh2\n" + omission(1, "3 B") + euros.substr(0, 72) + "\n");
  checkRendered(raw, limits, rendered);
}

TEST_CASE("digest: output with no newline at all", "[digest]") {
  std::string raw;
  while (raw.size() < 1024 * 1024) raw += "\xe2\x82\xac\xf0\x9f\x98\x80 progress ";
  const DigestLimits limits;
  const OutputDigest digest = digestOf(raw, limits);
  const OutputDigest::Rendered rendered = digest.render();
  CHECK(rendered.truncated);
  CHECK(rendered.omittedLines == 0);
  const std::string start = "[" + kEllipsis + " 0 lines (768.0 KiB) omitted " + kEllipsis + "]\n";
  CHECK(rendered.text.compare(0, start.size(), start) == 0);
  CHECK(digest.totalLines() == 1);
  checkRendered(raw, limits, rendered);

  // A small window, and a line cut by the cleaner.
  DigestLimits small{.maxLines = 10,
                     .maxBytes = 100,
                     .headLines = 3,
                     .headBytes = 30,
                     .tailWindowBytes = 200,
                     .maxLineBytes = 50};
  const std::string xs(1000, 'x');
  const OutputDigest::Rendered cut = digestOf(xs, small, 64).render();
  CHECK(cut.text == omission(0, "800 B") + std::string(40, 'x') + " [" + kEllipsis + " 150 bytes cut]");
  checkRendered(xs, small, cut);
}

TEST_CASE("digest: sizes in the omission line", "[digest]") {
  // `count` lines of `length` bytes, one line of head and one of tail: the omitted part is
  // (count - 2) * length bytes.
  const auto omittedSize = [](std::size_t count, std::size_t length) {
    DigestLimits limits{.maxLines = 3, .maxBytes = 1000, .headLines = 1, .headBytes = length, .tailWindowBytes = 4096};
    const std::string line = std::string(length - 1, 'x') + "\n";
    OutputDigest digest(limits);
    std::string block;
    for (std::size_t i = 0; i < 1024; ++i) block += line;
    std::size_t left = count;
    while (left > 0) {
      const std::size_t now = std::min<std::size_t>(left, 1024);
      digest.append(std::string_view(block).substr(0, now * length));
      left -= now;
    }
    const OutputDigest::Rendered rendered = digest.render();
    const std::string expectedStart = line + "[" + kEllipsis + " " + std::to_string(count - 2) + " lines (";
    const std::string expectedEnd = ") omitted " + kEllipsis + "]\n" + line;
    REQUIRE(rendered.text.compare(0, expectedStart.size(), expectedStart) == 0);
    REQUIRE(rendered.text.size() > expectedStart.size() + expectedEnd.size());
    REQUIRE(rendered.text.compare(rendered.text.size() - expectedEnd.size(), expectedEnd.size(), expectedEnd) == 0);
    CHECK(rendered.omittedBytes == (count - 2) * length);
    return rendered.text.substr(expectedStart.size(), rendered.text.size() - expectedStart.size() - expectedEnd.size());
  };
  CHECK(omittedSize(4, 5) == "10 B");
  CHECK(omittedSize(35, 31) == "1023 B");
  CHECK(omittedSize(34, 32) == "1.0 KiB");
  CHECK(omittedSize(42, 32) == "1.3 KiB");  // 1280 B, rounded half up
  CHECK(omittedSize(50, 32) == "1.5 KiB");
  CHECK(omittedSize(41945, 25) == "1.0 MiB"); // 1048575 B: not "1024.0 KiB"
  CHECK(omittedSize(196610, 64) == "12.0 MiB");
}

TEST_CASE("digest: rendering changes nothing and follows what is appended", "[digest]") {
  DigestLimits limits{.maxLines = 8, .maxBytes = 300, .headLines = 3, .headBytes = 60, .tailWindowBytes = 120};
  const std::string raw = numberedLines(1, 200);
  OutputDigest digest(limits);
  for (std::size_t at = 0; at < raw.size(); at += 37) {
    digest.append(std::string_view(raw).substr(at, 37));
    const std::string_view sofar = std::string_view(raw).substr(0, std::min(raw.size(), at + 37));
    const OutputDigest::Rendered first = digest.render();
    const OutputDigest::Rendered second = digest.render();
    CHECK(first.text == second.text);
    CHECK(first.text == digestOf(sofar, limits).render().text);
    checkRendered(sofar, limits, first);
  }
}

TEST_CASE("digest: random output keeps the limits and exact counts", "[digest]") {
  std::mt19937 random(20240611);
  for (int round = 0; round < 300; ++round) {
    const std::string raw = randomOutput(random);
    const DigestLimits limits = round % 5 == 0 ? DigestLimits{} : randomLimits(random);
    INFO("round " << round << ", " << raw.size() << " bytes; limits " << limits.maxLines << " lines, "
                  << limits.maxBytes << " bytes, head " << limits.headLines << "/" << limits.headBytes << ", window "
                  << limits.tailWindowBytes << ", line " << limits.maxLineBytes);
    OutputDigest digest(limits);
    std::size_t at = 0;
    while (at < raw.size()) {
      const std::size_t size = std::uniform_int_distribution<std::size_t>(1, 3000)(random);
      digest.append(std::string_view(raw).substr(at, size));
      at = std::min(raw.size(), at + size);
      if (std::uniform_int_distribution<int>(0, 9)(random) == 0) {
        checkRendered(std::string_view(raw).substr(0, at), limits, digest.render());
      }
    }
    CHECK(digest.totalBytes() == raw.size());
    CHECK(digest.totalLines() == linesIn(raw));
    checkRendered(raw, limits, digest.render());
  }
}

TEST_CASE("digest: tiny limits are never exceeded", "[digest]") {
  std::mt19937 random(7);
  for (int round = 0; round < 200; ++round) {
    const std::string raw = randomOutput(random);
    DigestLimits limits{.maxLines = std::uniform_int_distribution<std::size_t>(0, 4)(random),
                        .maxBytes = std::uniform_int_distribution<std::size_t>(0, 80)(random),
                        .headLines = std::uniform_int_distribution<std::size_t>(0, 5)(random),
                        .headBytes = std::uniform_int_distribution<std::size_t>(0, 100)(random),
                        .tailWindowBytes = std::uniform_int_distribution<std::size_t>(0, 300)(random),
                        .maxLineBytes = std::uniform_int_distribution<std::size_t>(0, 100)(random)};
    const OutputDigest::Rendered rendered = digestOf(raw, limits, 100).render();
    CHECK(rendered.text.size() <= limits.maxBytes);
    CHECK(linesIn(rendered.text) <= limits.maxLines);
  }
}

TEST_CASE("digest: 100 MB of output", "[digest]") {
  // A 64 KiB block of build-log-like lines, some coloured, some long, appended 1600 times.
  std::string block;
  std::mt19937 random(99);
  for (int i = 0; block.size() < 64 * 1024 - 200; ++i) {
    const std::size_t length = std::uniform_int_distribution<std::size_t>(0, 150)(random);
    block += i % 7 == 0 ? "\x1b[33mwarning\x1b[0m: " : "compiling ";
    block += std::string(length, static_cast<char>('a' + i % 26)) + "\n";
  }
  block.resize(64 * 1024, '.');
  std::string raw;
  raw.reserve(block.size() * 1600);
  for (int i = 0; i < 1600; ++i) raw += block;

  const DigestLimits limits;
  OutputDigest digest(limits);
  for (int i = 0; i < 1600; ++i) digest.append(block);
  CHECK(digest.totalBytes() == raw.size());
  CHECK(digest.totalLines() == linesIn(raw));
  const OutputDigest::Rendered rendered = digest.render();
  CHECK(rendered.truncated);
  CHECK(rendered.text.find(" MiB) omitted") != std::string::npos);
  checkRendered(raw, limits, rendered);
}
