#include "core/checkpoint/content_chunker.h"

#include "tests/unit/core/checkpoint/checkpoint_fixtures.h"

#include <catch2/catch.hpp>

#include <set>

using toold::core::ChunkId;
using toold::core::chunkBoundaries;
using toold::core::ChunkingLimits;

namespace {

std::vector<ChunkId> chunkIds(const std::string& content) {
  std::vector<ChunkId> ids;
  std::size_t begin = 0;
  for (std::size_t end : chunkBoundaries(content)) {
    ids.push_back(ChunkId::of(std::string_view(content).substr(begin, end - begin)));
    begin = end;
  }
  return ids;
}

} // namespace

TEST_CASE("content chunker: chunks cover the content within the size limits", "[checkpoint]") {
  const std::string text = toold::testing::joined(toold::testing::sourceLines(1 << 20));
  const ChunkingLimits limits;
  const auto ends = chunkBoundaries(text, limits);
  REQUIRE(!ends.empty());
  CHECK(ends.back() == text.size());
  std::size_t begin = 0;
  for (std::size_t i = 0; i < ends.size(); ++i) {
    const std::size_t size = ends[i] - begin;
    CHECK(size <= limits.maximum);
    if (i + 1 < ends.size()) CHECK(size > limits.minimum);
    begin = ends[i];
  }
  // Normalized chunking keeps the mean near the average asked for.
  const double mean = static_cast<double>(text.size()) / static_cast<double>(ends.size());
  CHECK(mean > 6 * 1024);
  CHECK(mean < 12 * 1024);
  CHECK(chunkBoundaries("").empty());
  CHECK(chunkBoundaries("short") == std::vector<std::size_t>{5});
}

TEST_CASE("content chunker: a run of one byte is cut at the maximum", "[checkpoint]") {
  const std::string run(200 * 1024, 'x');
  const auto ends = chunkBoundaries(run);
  REQUIRE(ends.size() == 4);
  CHECK(ends[0] == 64 * 1024);
  CHECK(ends[2] == 192 * 1024);
  CHECK(ends[3] == run.size());
}

TEST_CASE("content chunker: a one-line insert or edit changes at most two chunks", "[checkpoint]") {
  auto lines = toold::testing::sourceLines(1 << 20);
  const auto before = chunkIds(toold::testing::joined(lines));
  const std::set<ChunkId> known(before.begin(), before.end());
  for (std::size_t at : {std::size_t{0}, lines.size() / 3, lines.size() / 2, lines.size() - 1}) {
    auto edited = lines;
    edited.insert(edited.begin() + static_cast<std::ptrdiff_t>(at), "    an inserted line of code;\n");
    const auto after = chunkIds(toold::testing::joined(edited));
    std::size_t fresh = 0;
    for (const auto& id : after) fresh += known.contains(id) ? 0 : 1;
    INFO("insert at line " << at << " of " << lines.size() << ": " << fresh << " new chunks of " << after.size());
    CHECK(fresh <= 2);
    auto changed = lines;
    changed[at] = "    x = y;\n";
    const auto afterEdit = chunkIds(toold::testing::joined(changed));
    fresh = 0;
    for (const auto& id : afterEdit) fresh += known.contains(id) ? 0 : 1;
    CHECK(fresh <= 2);
  }
}

TEST_CASE("content chunker: chunk ids are 128-bit XXH3 and round-trip as hex", "[checkpoint]") {
  const ChunkId id = ChunkId::of("hello");
  CHECK(id.hex().size() == 32);
  ChunkId back;
  REQUIRE(ChunkId::fromHex(id.hex(), back));
  CHECK(back == id);
  CHECK_FALSE(ChunkId::fromHex("xyz", back));
  CHECK_FALSE(ChunkId::fromHex(std::string(32, 'G'), back));
  CHECK_FALSE(ChunkId::of("hello") == ChunkId::of("hellp"));
}
