// Standard base64 (RFC 4648, with padding), for file items sent as data URIs.
#pragma once

#include <string>
#include <string_view>

namespace toold::builtins {

std::string base64Encode(std::string_view bytes);

} // namespace toold::builtins
