// Writing a JSON value to text, byte for byte what nlohmann's dump(-1, ' ', false, replace)
// writes, several times faster. nlohmann hands every character to its output through a virtual
// call and decodes UTF-8 byte by byte; replies carry file windows and command output, so its
// serializer was a quarter of a `read` call's CPU. Here runs of plain bytes are copied whole.
#pragma once
#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace toold::protocol {

/// Appends `value` to `out`, compact, with UTF-8 kept as it is and each ill-formed sequence
/// replaced by U+FFFD (one per maximal ill-formed subpart, as nlohmann's replace handler does).
void appendJson(std::string& out, const nlohmann::json& value);

/// The same into a new string.
std::string writeJson(const nlohmann::json& value);

/// The number of bytes appendJson(out, value) appends, counted without writing them. Counting
/// stops once past `limit`: a larger result only says that the text is longer than `limit`.
/// (Measuring a value against a budget by writing it cost a copy of every string in it.)
std::size_t jsonSize(const nlohmann::json& value, std::size_t limit = static_cast<std::size_t>(-1));

/// The number of bytes appendJsonString(out, text) appends, quotes included.
std::size_t jsonStringSize(std::string_view text);

/// Appends `text` as a JSON string literal, quotes included.
void appendJsonString(std::string& out, std::string_view text);

/// Appends `strings` as a JSON array of string literals.
void appendJsonStrings(std::string& out, const std::vector<std::string>& strings);

} // namespace toold::protocol
