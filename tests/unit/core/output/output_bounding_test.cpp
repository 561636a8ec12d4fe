// Bounding a tool's content: measuring, the 50/50 cut by lines and by bytes, never a broken UTF-8
// character, the marker-only fallback, and how text and file items come out.
#include "core/output/output_bounding.h"
#include "core/output/output_store.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using toold::core::boundContent;
using toold::core::BoundingLimits;
using toold::core::boundedPreview;
using toold::core::json;
using toold::core::measureText;
using toold::core::truncationMarker;
using toold::core::withinLimits;

namespace {

/// "line1\nline2\n...\nline<count>"
std::string numberedLines(int count) {
  std::string text;
  for (int i = 1; i <= count; ++i) {
    if (i > 1) text += "\n";
    text += "line" + std::to_string(i);
  }
  return text;
}

std::string repeat(std::string_view piece, std::size_t times) {
  std::string text;
  for (std::size_t i = 0; i < times; ++i) text += piece;
  return text;
}

/// The length of the UTF-8 character whose first byte is `lead` (1 for anything else).
std::size_t charLength(char lead) {
  const auto byte = static_cast<unsigned char>(lead);
  if (byte >= 0xF0) return 4;
  if (byte >= 0xE0) return 3;
  if (byte >= 0xC0) return 2;
  return 1;
}

/// Well-formed UTF-8: every sequence complete, every continuation byte where it belongs.
bool isValidUtf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    if ((lead & 0xC0U) == 0x80U) return false;
    const std::size_t length = charLength(text[i]);
    if (i + length > text.size()) return false;
    for (std::size_t k = 1; k < length; ++k) {
      if ((static_cast<unsigned char>(text[i + k]) & 0xC0U) != 0x80U) return false;
    }
    i += length;
  }
  return true;
}

BoundingLimits limits(std::size_t maxLines, std::size_t maxBytes) {
  return BoundingLimits{.maxLines = maxLines, .maxBytes = maxBytes};
}

json textItem(const std::string& text) {
  return json{{"type", "text"}, {"text", text}};
}

json fileItem(const std::string& name) {
  return json{{"type", "file"}, {"uri", "file:///tmp/" + name}, {"mime", "image/png"}, {"name", name}};
}

} // namespace

TEST_CASE("measureText: a final newline ends the last line, the empty text has none", "[bounding]") {
  CHECK(measureText("").lines == 0);
  CHECK(measureText("").bytes == 0);
  CHECK(measureText("a").lines == 1);
  CHECK(measureText("a\n").lines == 1);
  CHECK(measureText("a\nb").lines == 2);
  CHECK(measureText("a\n\n").lines == 2);
  CHECK(measureText("\n").lines == 1);
  CHECK(measureText("é€😀").bytes == 9);
}

TEST_CASE("withinLimits holds at both limits exactly and fails one past either", "[bounding]") {
  const std::string fiveLines = numberedLines(5);
  CHECK(withinLimits(fiveLines, limits(5, fiveLines.size())));
  CHECK_FALSE(withinLimits(fiveLines, limits(4, fiveLines.size())));
  CHECK_FALSE(withinLimits(fiveLines, limits(5, fiveLines.size() - 1)));
  CHECK(withinLimits("", limits(0, 0)));
}

TEST_CASE("the default limits are 2000 lines and 50 KiB", "[bounding]") {
  const BoundingLimits defaults;
  CHECK(defaults.maxLines == 2000);
  CHECK(defaults.maxBytes == 51200);
}

TEST_CASE("too many lines: half the line budget from the start, half from the end", "[bounding]") {
  // maxLines 8 leaves 4 lines of text: the first 2 and the last 2.
  CHECK(boundedPreview(numberedLines(10), "M", limits(8, 1000)) == "line1\nline2\n\nM\n\nline9\nline10");
  // An odd budget gives the extra line to the head.
  CHECK(boundedPreview(numberedLines(10), "M", limits(9, 1000)) == "line1\nline2\nline3\n\nM\n\nline9\nline10");
  // A final newline is not a line of its own, so the tail is the same.
  CHECK(boundedPreview(numberedLines(10) + "\n", "M", limits(8, 1000)) == "line1\nline2\n\nM\n\nline9\nline10");
  // Empty lines are lines: "a", "", "", "", "", "b" keeps "a", "" and "", "b".
  CHECK(boundedPreview("a\n\n\n\n\nb\n", "M", limits(8, 1000)) == "a\n\n\nM\n\n\nb");
  // A tail of empty lines is empty, and an empty tail is left out with its separator.
  CHECK(boundedPreview("a\n\n\n\n\nb\n\n", "M", limits(6, 1000)) == "a\n\nM");
}

TEST_CASE("a line budget of one keeps the first line and no tail", "[bounding]") {
  CHECK(boundedPreview("a\nb\nc", "M", limits(5, 1000)) == "a\n\nM");
}

TEST_CASE("text within the budgets is shown whole before the marker", "[bounding]") {
  CHECK(boundedPreview("a\nb", "M", limits(8, 1000)) == "a\nb\n\nM");
}

TEST_CASE("one huge line: the byte budget split evenly between head and tail", "[bounding]") {
  const std::string text(100000, 'x');
  const BoundingLimits defaults;
  // 51200 - 1 (marker) - 4 (separators) = 51195 bytes: 25598 to the head, 25597 to the tail.
  const std::string preview = boundedPreview(text, "M", defaults);
  CHECK(preview == std::string(25598, 'x') + "\n\nM\n\n" + std::string(25597, 'x'));
  CHECK(preview.size() == 51200);
  CHECK(withinLimits(preview, defaults));
}

TEST_CASE("long lines after the line cut: the sample of first and last lines is cut by bytes", "[bounding]") {
  // 10 lines of 10 bytes; 4 lines kept -> sample "aaaaaaaaa0\naaaaaaaaa1\naaaaaaaaa8\naaaaaaaaa9" (43 bytes).
  std::string text;
  for (int i = 0; i < 10; ++i) text += std::string(9, 'a') + std::to_string(i) + "\n";
  // B = 20 - 1 - 4 = 15: head 8 bytes, tail 7 bytes.
  CHECK(boundedPreview(text, "M", limits(8, 20)) == "aaaaaaaa\n\nM\n\naaaaaa9");
}

TEST_CASE("the byte cut never breaks a UTF-8 character and keeps the longest prefix and suffix", "[bounding]") {
  // maxBytes 16 with a 1-byte marker leaves B = 11: head <= 6 bytes, tail <= 5 bytes.
  const auto preview = [](std::string_view piece) { return boundedPreview(repeat(piece, 100), "M", limits(100, 16)); };
  CHECK(preview("é") == "ééé\n\nM\n\néé");       // 2-byte: 6 and 4 bytes
  CHECK(preview("€") == "€€\n\nM\n\n€");          // 3-byte: 6 and 3 bytes
  CHECK(preview("😀") == "😀\n\nM\n\n😀");        // 4-byte: 4 and 4 bytes
  // B = 7: the tail's 3 bytes cannot hold a 4-byte character, so there is no tail at all.
  CHECK(boundedPreview(repeat("😀", 100), "M", limits(100, 12)) == "😀\n\nM");
}

TEST_CASE("for every byte budget the byte cut is valid UTF-8 and as long as allowed", "[bounding]") {
  const std::string text = repeat("aé€😀", 20); // one line, characters of 1 to 4 bytes
  const std::string marker = "#";
  for (std::size_t budget = 1; budget <= 40; ++budget) {
    CAPTURE(budget);
    const std::string preview = boundedPreview(text, marker, limits(100, budget + marker.size() + 4));
    const std::size_t markerAt = preview.find("\n\n#");
    REQUIRE(markerAt != std::string::npos);
    const std::string head = preview.substr(0, markerAt);
    const std::string rest = preview.substr(markerAt + 3);
    const std::string tail = rest.empty() ? "" : rest.substr(2);
    CHECK((rest.empty() || rest.starts_with("\n\n")));

    const std::size_t headLimit = (budget + 1) / 2;
    const std::size_t tailLimit = budget / 2;
    CHECK(text.starts_with(head));
    CHECK(text.ends_with(tail));
    CHECK(isValidUtf8(head));
    CHECK(isValidUtf8(tail));
    CHECK(head.size() <= headLimit);
    CHECK(tail.size() <= tailLimit);
    // Longest: the next character would not have fit.
    CHECK(head.size() + charLength(text[head.size()]) > headLimit);
    const std::size_t tailStart = text.size() - tail.size();
    std::size_t previousChar = tailStart - 1;
    while ((static_cast<unsigned char>(text[previousChar]) & 0xC0U) == 0x80U) --previousChar;
    CHECK(text.size() - previousChar > tailLimit);
  }
}

TEST_CASE("limits too small for text beside the marker give the marker alone", "[bounding]") {
  const std::string marker = truncationMarker("/data/tool-output/tool_x");
  const std::string text = numberedLines(100);
  // Four lines cannot hold head, separator, marker, separator and tail.
  CHECK(boundedPreview(text, marker, limits(4, 100000)) == marker);
  // marker + 4 bytes leaves no byte for text.
  CHECK(boundedPreview(text, marker, limits(100, marker.size() + 4)) == marker);
  // The marker itself is cut to the limits.
  CHECK(boundedPreview(text, marker, limits(100, 10)) == "... output");
  CHECK(boundedPreview(text, "ééé", limits(100, 5)) == "éé");
  CHECK(boundedPreview(text, "ab\ncd\nef", limits(2, 100)) == "ab\ncd");
  CHECK(boundedPreview(text, marker, limits(0, 100)).empty());
  CHECK(boundedPreview(text, marker, limits(100, 0)).empty());
  // One byte more than marker + 4 is room for one byte of text.
  CHECK(boundedPreview("xyz", marker, limits(100, marker.size() + 5)) == "x\n\n" + marker);
}

TEST_CASE("whatever the text and limits, the preview is within the limits and valid UTF-8", "[bounding]") {
  const std::vector<std::string> texts = {
      "", "x", numberedLines(30), numberedLines(30) + "\n", repeat("é€😀\n", 15), repeat("\n", 20),
      repeat("😀", 50) + "\n" + numberedLines(5), std::string(300, 'y'),
  };
  for (const auto& text : texts) {
    for (std::size_t maxLines = 0; maxLines <= 12; ++maxLines) {
      for (std::size_t maxBytes = 0; maxBytes <= 70; ++maxBytes) {
        const std::string preview = boundedPreview(text, "[cut é]", limits(maxLines, maxBytes));
        CAPTURE(text, maxLines, maxBytes, preview);
        REQUIRE(withinLimits(preview, limits(maxLines, maxBytes)));
        REQUIRE(isValidUtf8(preview));
      }
    }
  }
}

TEST_CASE("truncationMarker names the file", "[bounding]") {
  CHECK(truncationMarker("/d/tool-output/tool_1") ==
        "... output truncated; full content saved to /d/tool-output/tool_1 ...");
}

TEST_CASE("the hint follows the marker, unless the limits are too small for both", "[bounding]") {
  const std::string hint(toold::core::truncationHint(false));
  CHECK(truncationMarker("/d/t", hint) == "... output truncated; full content saved to /d/t ... " + hint);
  CHECK(toold::core::truncationHint(true).find("task tool") != std::string_view::npos);
  std::string text;
  for (int i = 0; i < 50; ++i) text += "line " + std::to_string(i) + "\n";
  const json content = json::array({textItem(text)});
  auto retain = [](std::string_view) { return std::filesystem::path("/d/t"); };
  const auto roomy = boundContent(content, limits(10, 4096), retain, hint);
  CHECK(roomy.content[0]["text"].get<std::string>().find("/d/t ... " + hint + "\n") != std::string::npos);
  const auto tight = boundContent(content, limits(10, 200), retain, hint);
  CHECK(tight.content[0]["text"].get<std::string>().find(hint) == std::string::npos);
  CHECK(tight.content[0]["text"].get<std::string>().find("/d/t ...") != std::string::npos);
}

TEST_CASE("content within the limits comes back unchanged and nothing is retained", "[bounding]") {
  const json content = json::array({textItem("one"), fileItem("a.png"), textItem("two")});
  int retained = 0;
  const auto result = boundContent(content, limits(2, 100), [&](std::string_view) {
    ++retained;
    return std::filesystem::path("/unused");
  });
  CHECK(result.content == content);
  CHECK_FALSE(result.truncated);
  CHECK_FALSE(result.outputPath.has_value());
  CHECK(retained == 0);
}

TEST_CASE("file items are never measured", "[bounding]") {
  const json content = json::array({fileItem(std::string(500, 'f')), fileItem("b.png")});
  const auto result = boundContent(content, limits(1, 10), [](std::string_view) -> std::filesystem::path {
    FAIL("retained content that had no text");
    return {};
  });
  CHECK(result.content == content);
  CHECK_FALSE(result.truncated);
}

TEST_CASE("text items are measured together: one preview item where the first text was, files kept in order",
          "[bounding]") {
  // Each text item has 3 lines, within 5; joined they have 6, over the 5 allowed.
  const json content = json::array({fileItem("first.png"), textItem("a1\na2\na3"), fileItem("middle.png"),
                                    textItem("b1\nb2\nb3"), fileItem("last.png")});
  std::vector<std::string> retainedTexts;
  const std::filesystem::path saved = "/data/tool-output/tool_0123";
  const auto result = boundContent(content, limits(5, 1000), [&](std::string_view joined) {
    retainedTexts.emplace_back(joined);
    return saved;
  });

  REQUIRE(retainedTexts.size() == 1);
  CHECK(retainedTexts[0] == "a1\na2\na3\nb1\nb2\nb3");
  CHECK(result.truncated);
  REQUIRE(result.outputPath.has_value());
  CHECK(*result.outputPath == saved);
  // maxLines 5 leaves 1 line: the first, and no tail.
  const json expected = json::array(
      {fileItem("first.png"),
       textItem("a1\n\n... output truncated; full content saved to /data/tool-output/tool_0123 ..."),
       fileItem("middle.png"), fileItem("last.png")});
  CHECK(result.content == expected);
}

TEST_CASE("the preview item holds the 50/50 cut of the joined text", "[bounding]") {
  const json content = json::array({textItem(numberedLines(6)), textItem(numberedLines(4))});
  const auto result = boundContent(content, limits(8, 1000), [](std::string_view) {
    return std::filesystem::path("/o/tool_1");
  });
  REQUIRE(result.content.size() == 1);
  // Joined: line1..line6, line1..line4 (10 lines); 4 kept: line1, line2 and line3, line4 of the second item.
  CHECK(result.content[0] ==
        textItem("line1\nline2\n\n... output truncated; full content saved to /o/tool_1 ...\n\nline3\nline4"));
  CHECK(withinLimits(result.content[0]["text"].get<std::string>(), limits(8, 1000)));
}

TEST_CASE("a failure to retain the full text propagates and nothing is returned", "[bounding]") {
  const json content = json::array({textItem(numberedLines(50))});
  CHECK_THROWS_AS(boundContent(content, limits(10, 1000),
                               [](std::string_view) -> std::filesystem::path {
                                 throw toold::core::StorageError("cannot write to /x: No space left on device");
                               }),
                  toold::core::StorageError);
}

TEST_CASE("malformed content is refused rather than passed through unmeasured", "[bounding]") {
  const auto retain = [](std::string_view) { return std::filesystem::path("/o/tool_1"); };
  CHECK_THROWS_AS(boundContent(json::object(), limits(10, 100), retain), std::invalid_argument);
  CHECK_THROWS_AS(boundContent(json::array({json{{"type", "text"}, {"text", 5}}}), limits(10, 100), retain),
                  std::invalid_argument);
  CHECK_THROWS_AS(boundContent(json::array({json{{"type", "text"}}}), limits(10, 100), retain), std::invalid_argument);
}
