// Reads the top-level members of a JSON-RPC message that the benchmark needs, without building a
// DOM: at hundreds of thousands of replies a second, parsing each one fully would measure the
// client instead of the server.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace toold::bench {

struct MessageShape {
  bool valid = false;              ///< a JSON object whose top level could be walked
  std::optional<std::int64_t> id;  ///< an integer id (the benchmark only sends integer ids)
  bool hasId = false;              ///< any id, integer or not
  bool hasMethod = false;
  bool hasResult = false;
  bool hasError = false;
  std::string_view result;         ///< the raw text of the result value, a view into the body
};

/// Walks the top level of one frame body. Nested values are skipped, not checked.
MessageShape scanMessage(std::string_view body);

/// The raw text of the value of `key` among the top-level members of the JSON object `object`
/// (keys compared raw, escapes as they are); empty when it has no such member or is no object.
std::optional<std::string_view> memberText(std::string_view object, std::string_view key);

} // namespace toold::bench
