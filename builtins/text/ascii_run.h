// Finding the end of a run of plain ASCII text sixteen bytes at a time. A read's lines are
// decoded as UTF-8 byte by byte only where they are not plain ASCII; most source text is, and a
// loop of two compares per byte was the larger part of a 100-line read's own work.
#pragma once
#include <cstddef>

namespace toold::builtins {

/// The first position in [from, limit) whose byte is not ASCII (0x80 and up) or is '\r'; `limit`
/// when there is none.
std::size_t plainAsciiRunEnd(const char* data, std::size_t from, std::size_t limit);

} // namespace toold::builtins
