// Splitting a server command given as one string, the way a POSIX shell splits words.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toold::bench {

/// Splits on blanks, honouring '...', "..." and backslash escapes; no expansion of any kind.
/// Empty when a quote is left open.
std::optional<std::vector<std::string>> splitCommand(std::string_view command);

/// Quotes one word so that a shell reads it back unchanged.
std::string shellQuote(std::string_view word);

} // namespace toold::bench
