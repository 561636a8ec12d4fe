// Regular expressions for `$re:` patterns and `%stderr` lines, backed by PCRE2: Perl syntax that
// fixture authors know, and defined behaviour on the invalid UTF-8 a daemon log may contain.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

namespace toold::fixture {

/// A pattern PCRE2 refused; the message says what is wrong and at which offset.
struct RegexError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Regex {
public:
  /// Compiles `pattern` (UTF-8). Throws RegexError.
  explicit Regex(std::string_view pattern);

  /// True when the pattern matches somewhere in `subject` (a search: anchored only if the pattern
  /// anchors itself). Invalid UTF-8 in the subject never matches a character but is not an error.
  bool search(std::string_view subject) const;

  const std::string& pattern() const { return pattern_; }

private:
  struct Code;
  std::shared_ptr<Code> code_;
  std::string pattern_;
};

} // namespace toold::fixture
