// Counting '\n' bytes sixteen at a time. The line index of a large file counts every newline of
// it; a memchr call per line costs more than the reading and hashing of the bytes together. The
// pipeline measures every text result's lines with it too (std::count takes a byte a step).
#pragma once
#include <cstddef>
#include <cstdint>

namespace toold::core {

/// How many '\n' bytes the 64 bytes at `block` hold.
std::size_t countNewlines64(const char* block);

/// How many '\n' bytes [data, data + size) holds.
std::uint64_t countNewlines(const char* data, std::size_t size);

/// Moves past `remaining` newlines of [from, end): returns the byte after the one that brought
/// `remaining` to zero, or `end` with `remaining` lowered by the newlines passed.
const char* skipNewlines(const char* from, const char* end, std::uint64_t& remaining);

} // namespace toold::core
