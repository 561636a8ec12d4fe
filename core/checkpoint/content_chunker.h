// Cutting file contents into chunks at content-defined boundaries, so that a one-line edit changes
// one chunk (rarely two) and every other chunk of the file is shared with the version before it.
// Boundaries are found by a gear rolling hash with normalized chunking (FastCDC): cut points depend
// only on the bytes of the last 64 positions, so inserting or removing bytes moves the boundaries
// after it with the content instead of shifting them all.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace toold::core {

/// A chunk's identity: XXH3-128 of its bytes. 128 bits, because a collision would silently give a
/// restored file another chunk's bytes: among 2^32 distinct chunks (32 TiB at 8 KiB) the chance of
/// any collision is about 2^-65.
struct ChunkId {
  std::uint64_t high = 0, low = 0;
  bool operator==(const ChunkId&) const = default;
  auto operator<=>(const ChunkId&) const = default;

  static ChunkId of(std::string_view bytes);
  /// 32 lower-case hex digits, high half first.
  std::string hex() const;
  /// The inverse of hex(); false on anything that is not 32 hex digits.
  static bool fromHex(std::string_view text, ChunkId& id);
};

struct ChunkingLimits {
  std::size_t minimum = 2 * 1024;  ///< no cut before this many bytes (the gear is not even looked at)
  std::size_t average = 8 * 1024;  ///< the normalization point: harder to cut before, easier after
  std::size_t maximum = 64 * 1024; ///< a cut here whatever the content (long runs of one byte)
};

/// The end offsets of the chunks of `content`, in order; the last is content.size(). Empty content
/// has no chunks. `limits.average` must be a power of two between minimum and maximum.
std::vector<std::size_t> chunkBoundaries(std::string_view content, const ChunkingLimits& limits = {});

} // namespace toold::core
