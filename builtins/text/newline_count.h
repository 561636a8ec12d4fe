// Counting '\n' bytes sixteen at a time. The line index of a large file counts every newline of
// it; a memchr call per line costs more than the reading and hashing of the bytes together.
#pragma once
#include <cstddef>
#include <cstdint>

namespace toold::builtins {

/// How many '\n' bytes the 64 bytes at `block` hold.
std::size_t countNewlines64(const char* block);

/// How many '\n' bytes [data, data + size) holds.
std::uint64_t countNewlines(const char* data, std::size_t size);

} // namespace toold::builtins
