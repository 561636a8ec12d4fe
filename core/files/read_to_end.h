// Reading an open file to its end, for the records and stores that must hold a file's bytes
// whole. A read error is reported, never taken for the file's end: a record of half a file would
// be restored as if it were the whole.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace toold::core {

/// The bytes from `fd`'s offset to its end (`expected` reserves room); nullopt when a read fails,
/// with errno set by it.
std::optional<std::string> readToEnd(int fd, std::size_t expected = 0);

} // namespace toold::core
