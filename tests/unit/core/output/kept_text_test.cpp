// What a kept file holds of an output over the file's bound: half its bytes from the start, half
// from the end, moved off broken UTF-8 characters, and a line saying what was left out.
#include "core/output/kept_text.h"

#include <catch2/catch.hpp>

using namespace toold::core;

TEST_CASE("kept text: an output within the bound is kept whole", "[kept_text]") {
  const KeptPart part = keptPart(100, 100);
  CHECK(part.whole());
  CHECK(part.headBytes == 100);
  CHECK(part.tailBytes == 0);
  CHECK(KeptPart{}.whole());
}

TEST_CASE("kept text: a larger output keeps half the bound at each end, the head the odd byte", "[kept_text]") {
  const KeptPart part = keptPart(1000, 101);
  CHECK_FALSE(part.whole());
  CHECK(part.headBytes == 51);
  CHECK(part.tailBytes == 50);
  CHECK(leftOutLine(part) == "\n\n... 899 bytes left out here: this file keeps the first 51 and the last 50 bytes of 1000 ...\n\n");
  CHECK(keptNote(part, "/d/tool-output/tool_1") ==
        "kept the first 51 bytes and the last 50 bytes of 1000 bytes (1000 bytes) in /d/tool-output/tool_1");
  CHECK(savedWhere(RetainedText{"/d/tool_1", part}) == "only part of it kept: " + keptNote(part, "/d/tool_1"));
  CHECK(savedWhere(RetainedText{"/d/tool_1"}) == "full content saved to /d/tool_1");
}

TEST_CASE("kept text: the cuts move off a character they would break", "[kept_text]") {
  const KeptPart part{100, 10, 10};
  // "é" is C3 A9: a head ending on C3 drops it; a tail starting on A9 drops that.
  const KeptPart moved = onCharacterBoundaries(part, "ab\xc3", "\xa9xyz");
  CHECK(moved.headBytes == 9);
  CHECK(moved.tailBytes == 9);
  // Whole characters at both ends stay.
  CHECK(onCharacterBoundaries(part, "a\xc3\xa9", "\xe2\x82\xac!").headBytes == 10);
  CHECK(onCharacterBoundaries(part, "a\xc3\xa9", "\xe2\x82\xac!").tailBytes == 10);
  // A three-byte character cut after two of its bytes.
  CHECK(onCharacterBoundaries(part, "x\xe2\x82", "abc").headBytes == 8);
}

TEST_CASE("kept text: sizes are told in binary units", "[kept_text]") {
  CHECK(byteSize(1) == "1 byte");
  CHECK(byteSize(999) == "999 bytes");
  CHECK(byteSize(1536) == "1.5 KiB");
  CHECK(byteSize(std::uint64_t{256} << 20) == "256.0 MiB");
  CHECK(byteSize(std::uint64_t{4} << 30) == "4.0 GiB");
}
