// Globs as .gitignore, `rg --glob` and the glob tool's `pattern` write them, compiled once and
// matched against slash-separated relative paths from any number of threads.
//
// Syntax: `*` any run of characters except '/'; `?` one character except '/'; `[...]` one
// character of a class (ranges `a-z`, negation with a leading `!` or `^`, never '/'; a ']' right
// after the opening (or its negation) is a member, so `[]]` matches ']'; a '-' first or last is
// literal; `[:alpha:]`-style POSIX names as git's wildmatch has them); `{a,b}` one of the
// alternatives (nested braces allowed; a brace without a comma is literal; at most 256
// alternatives in all); `**` as a whole path component matches any number of components: `**/x`
// (x at any depth, the top included), `x/**` (everything below x, not x itself), `a/**/b` (b any
// depth below a, a/b included); `**` elsewhere acts as `*`; `\x` is x literally, in classes too.
// "Character" means a UTF-8 code point (a stray byte counts as one). Matching is case-sensitive
// unless asked otherwise (ASCII letters only fold), and always anchored at both ends: the caller
// decides what a pattern without a slash is matched against (a name, for gitignore).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <variant>

namespace toold::core {

class GlobPattern {
public:
  /// Compiles `glob`, or says what is wrong with it: "unclosed '[' at offset 3", "unclosed '{' at
  /// offset 0", "a trailing '\\' escapes nothing", "unknown character class '[:x:]' at offset 1",
  /// "the braces expand to more than 256 alternatives".
  static std::variant<GlobPattern, std::string> compile(std::string_view glob, bool caseInsensitive = false);

  /// Whether the whole of `path` (relative, '/'-separated, no leading "./") matches.
  bool matches(std::string_view path) const;

  const std::string& glob() const { return glob_; }

private:
  struct Compiled;
  GlobPattern(std::string glob, std::shared_ptr<const Compiled> compiled)
      : glob_(std::move(glob)), compiled_(std::move(compiled)) {}
  std::string glob_;
  std::shared_ptr<const Compiled> compiled_;
};

} // namespace toold::core
