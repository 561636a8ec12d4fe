// Reading request params: one exception type, and readers that name the JSON path of the first
// problem, so that every bad input is answered -32602 with a message saying exactly what is wrong.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace toold::protocol {

using nlohmann::json;

/// Params that do not fit their method; answered -32602 with this message.
struct ParamsError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Reads fields of one JSON object; `path` prefixes every error ("tools.read.handler").
class ParamsReader {
public:
  /// Throws unless `value` is an object (null counts as an empty object when `nullIsEmpty`).
  ParamsReader(const json& value, std::string path, bool nullIsEmpty = false);

  const json& object() const { return value_; }
  bool has(std::string_view key) const;
  std::string requireString(std::string_view key, bool allowEmpty = false) const;
  std::optional<std::string> optionalString(std::string_view key) const;
  std::optional<bool> optionalBool(std::string_view key) const;
  std::optional<std::uint64_t> optionalUnsigned(std::string_view key) const;
  /// The value of `key`, any JSON; throws when missing.
  const json& require(std::string_view key) const;
  /// The path of a member, for nested readers and messages: "params.tools".
  std::string pathOf(std::string_view key) const;
  [[noreturn]] void fail(std::string_view key, std::string_view what) const;

private:
  const json& value_;
  std::string path_;
};

} // namespace toold::protocol
