// Byte-level helpers of the searcher: counting lines fast and cutting a matched line down to
// what is reported. Private to builtins/search.
#pragma once

#include <cstddef>
#include <string_view>

namespace toold::builtins::search {

/// The number of '\n' in [begin, end): 16 bytes a step (GCC vector extensions, so SSE2 on x86-64
/// and NEON on ARM), which keeps line numbering off the profile even where lines are short.
std::size_t countNewlines(const char* begin, const char* end);

/// What is reported of a line (given without its '\n'): without a final "\r", and at most
/// `maxBytes` long, cut before a UTF-8 sequence rather than inside one.
std::string_view reportedLine(std::string_view line, std::size_t maxBytes);

} // namespace toold::builtins::search
