// Values remembered from toold's messages (`"$capture:NAME"`) and their use in what the fixture
// sends and expects (`${NAME}`). `workspace`, `data` and `outside` are predefined by the runner.
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace toold::fixture {

using nlohmann::json;
using Captures = std::map<std::string, json, std::less<>>;

/// A capture name: a letter or `_`, then letters, digits and `_`.
bool isCaptureName(std::string_view name);

/// The name in a string that is exactly `${NAME}`, else nothing.
std::optional<std::string> wholeReference(std::string_view text);

/// The text a capture stands for inside a longer string: a string's own characters, any other
/// value's compact JSON.
std::string captureText(const json& value);

/// Replaces every `${NAME}` inside `text` by the capture's text. Throws std::runtime_error
/// naming the first reference that is not captured. `$${` is not special: there is no escape.
std::string interpolate(std::string_view text, const Captures& captures);

/// Like interpolate, but a reference to a name that is not captured is left as written: for text
/// such as a symbolic link's target, which is taken literally but for a few names.
std::string interpolateKnown(std::string_view text, const Captures& captures);

/// Substitutes in every string of `value` (not in object keys): a string that is exactly
/// `"${NAME}"` becomes the captured value with its type; references inside longer strings are
/// interpolated. Throws std::runtime_error for an unknown name.
json substituteCaptures(const json& value, const Captures& captures);

/// Every NAME that `${NAME}` references in the strings of `value`.
std::set<std::string> referencedCaptures(const json& value);

/// Every NAME in `text` referenced as `${NAME}`.
std::set<std::string> referencedCaptures(std::string_view text);

} // namespace toold::fixture
