// Wildcard patterns of permission rules: `*` matches any run of characters (slashes included), `?`
// one character, everything else itself; anchored at both ends. A pattern ending in " *" also
// matches the bare prefix, so `git status *` covers `git status` as well as `git status -s`.
#pragma once

#include <string_view>

namespace toold::core {

bool wildcardMatch(std::string_view pattern, std::string_view text);

} // namespace toold::core
