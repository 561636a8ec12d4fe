// A short, stable file name for a text that cannot be one itself (a workspace's path, a session's
// id): FNV-1a, 64 bits, as 16 hex digits. Not a secret and not collision-proof: a file named by it
// also records the text it stands for, so a rare collision is detected by whoever reads it.
#pragma once

#include <string>
#include <string_view>

namespace toold::core {

std::string stableKey(std::string_view text);

} // namespace toold::core
