// Structural matching of toold's messages against the fixture's `<` patterns.
//
//   objects      match as subsets (extra keys allowed), or exactly with {"$exact": {...}}
//   arrays       match element-wise and must have the same length
//   scalars      match by equality; 1, 1.0 and "1" are three different values
//   "$any"       any value that is present
//   "$absent"    as an object member's value: that key must not be present
//   "$re:REGEX"  a string the PCRE2 regex finds a match in (anchor it to match the whole string)
//   "$capture:N" any value, remembered as N for later patterns and sends
//   "${N}"       exactly the value captured as N; `${N}` inside a longer string is replaced by its text
#pragma once

#include "captures.h"

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>

namespace toold::fixture {

using nlohmann::json;

/// A pattern whose special forms are misused; the message names the JSON path.
struct PatternError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Checks every special form of `pattern` (and compiles its regexes) so that a broken fixture is
/// reported when it is read, not when a message happens to reach the broken part. Throws PatternError.
void validatePattern(const json& pattern);

/// The names `pattern` captures with "$capture:NAME".
std::set<std::string> capturedNames(const json& pattern);

struct MatchResult {
  bool matched = false;
  std::string mismatch; ///< when not matched: where and why, e.g. `at result.id: expected 1, got "1"`
  explicit operator bool() const { return matched; }
};

/// Matches `actual` against `pattern`. On success the pattern's captures are added to `captures`;
/// on failure `captures` is left as it was.
MatchResult matchPattern(const json& pattern, const json& actual, Captures& captures);

/// Equality that keeps integers and fractional numbers apart (nlohmann's == says 1 == 1.0),
/// recursively. Signed and unsigned integers of the same value are equal.
bool strictlyEqual(const json& a, const json& b);

} // namespace toold::fixture
