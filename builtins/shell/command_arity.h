// The save pattern an "always" answer to a shell permission stores: the command's prefix that
// names what it does (`git checkout`, `npm run build`) followed by " *", from opencode's arity
// table, so "always" for `git checkout main` allows `git checkout dev` but not `git push`.
#pragma once

#include <string>
#include <vector>

namespace toold::builtins {

/// The first `arity` words of `words`, where `arity` comes from the longest prefix of `words`
/// that is a key of the table (opencode's permission/arity.ts: `git` 2, `npm run` 3, `cat` 1, …);
/// no key matches → the first word only; no words → none.
std::vector<std::string> commandPrefix(const std::vector<std::string>& words);

/// `commandPrefix(words)` joined with spaces, then " *" (the space keeps `ls *` from covering
/// `lsof`); empty for no words.
std::string savePattern(const std::vector<std::string>& words);

} // namespace toold::builtins
