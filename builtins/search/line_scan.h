// Byte-level helpers of the searcher: cutting a matched line down to what is reported (lines are
// counted by core/base/newline_count). Private to builtins/search.
#pragma once

#include <cstddef>
#include <string_view>

namespace toold::builtins::search {

/// What is reported of a line (given without its '\n'): without a final "\r", and at most
/// `maxBytes` long, cut before a UTF-8 sequence rather than inside one.
std::string_view reportedLine(std::string_view line, std::size_t maxBytes);

} // namespace toold::builtins::search
