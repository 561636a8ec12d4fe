// The longest piece of plain text that every match of a regular expression must contain, found
// by reading the pattern conservatively. The searcher looks for that text first (PCRE2's JIT
// finds a literal at memory speed) and runs the whole pattern only on the lines that have it,
// which is what makes `\w+Error` or `^\s*#\s*define` as fast as a literal. Private to
// builtins/search.
#pragma once

#include <string>
#include <string_view>

namespace toold::builtins::search {

/// ASCII text that any match of `pattern` (PCRE2 syntax, no extended mode) contains, as it is
/// written in the pattern (so it must be matched caselessly when the pattern is); empty when none
/// can be proved. Conservative: a top-level "|", an inline option or verb ("(?", "(*"), or an
/// escape it does not know make it give up; groups, classes and non-ASCII characters end a piece
/// of text, and a character under a quantifier that allows zero ("?", "*", "{") is left out.
std::string requiredLiteral(std::string_view pattern);

} // namespace toold::builtins::search
