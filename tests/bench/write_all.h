// The benchmark's small servers write their answers whole, however the pipe takes them.
#pragma once

#include <string_view>

namespace toold::bench {

/// Writes all of `bytes` to `fd`, retrying partial writes and EINTR. False on any other error.
bool writeAll(int fd, std::string_view bytes);

} // namespace toold::bench
