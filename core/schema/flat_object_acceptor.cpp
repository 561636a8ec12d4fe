#include "core/schema/flat_object_acceptor.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string_view>

namespace toold::core::schema_detail {
namespace {

enum TypeBit : unsigned { kString = 1, kInteger = 2, kNumber = 4, kBoolean = 8, kNull = 16 };

std::optional<unsigned> typeBit(const json& name) {
  if (!name.is_string()) return std::nullopt;
  const auto& text = name.get_ref<const std::string&>();
  if (text == "string") return kString;
  if (text == "integer") return kInteger;
  if (text == "number") return kNumber;
  if (text == "boolean") return kBoolean;
  if (text == "null") return kNull;
  return std::nullopt; // object, array, or not a type at all
}

// Keywords that say nothing about validity. Any keyword not listed here or checked below makes
// the schema one this class does not cover.
constexpr std::array<std::string_view, 11> kAnnotations = {
    "title", "description", "default", "examples", "$comment", "deprecated", "readOnly", "writeOnly", "$schema", "$id",
    "$defs"};

bool isAnnotation(const std::string& key) {
  return std::find(kAnnotations.begin(), kAnnotations.end(), key) != kAnnotations.end();
}

// Integers beyond this magnitude are not all exact as doubles: such a comparison is left alone.
constexpr double kExactDouble = 9007199254740992.0; // 2^53

/// -1, 0 or 1 as a is below, equal to or above b; nothing when it cannot be said exactly.
std::optional<int> compareNumbers(const json& a, const json& b) {
  auto sign = [](auto x, auto y) { return x < y ? -1 : (y < x ? 1 : 0); };
  if (a.is_number_integer() && b.is_number_integer()) {
    const bool aUnsigned = a.is_number_unsigned(), bUnsigned = b.is_number_unsigned();
    if (!aUnsigned && !bUnsigned) return sign(a.get<std::int64_t>(), b.get<std::int64_t>());
    if (aUnsigned && bUnsigned) return sign(a.get<std::uint64_t>(), b.get<std::uint64_t>());
    // One unsigned (at least 0): a negative other side is below it.
    if (aUnsigned) return b.get<std::int64_t>() < 0 ? 1 : sign(a.get<std::uint64_t>(), b.get<std::uint64_t>());
    return a.get<std::int64_t>() < 0 ? -1 : sign(a.get<std::uint64_t>(), b.get<std::uint64_t>());
  }
  const double x = a.get<double>(), y = b.get<double>();
  if (!std::isfinite(x) || !std::isfinite(y)) return std::nullopt;
  if ((a.is_number_integer() && std::fabs(x) > kExactDouble) || (b.is_number_integer() && std::fabs(y) > kExactDouble))
    return std::nullopt;
  return sign(x, y);
}

} // namespace

std::optional<FlatObjectAcceptor> FlatObjectAcceptor::compile(const json& document) {
  if (!document.is_object()) return std::nullopt;
  FlatObjectAcceptor acceptor;
  bool isObject = false;
  for (const auto& [key, value] : document.items()) {
    if (key == "type") {
      if (value != "object") return std::nullopt;
      isObject = true;
    } else if (key == "required") {
      if (!value.is_array()) return std::nullopt;
      for (const json& name : value) {
        if (!name.is_string()) return std::nullopt;
        acceptor.required_.push_back(name.get<std::string>());
      }
    } else if (key == "additionalProperties") {
      if (!value.is_boolean()) return std::nullopt;
      acceptor.closed_ = !value.get<bool>();
    } else if (key == "properties") {
      if (!value.is_object()) return std::nullopt;
      for (const auto& [name, schema] : value.items()) {
        if (!schema.is_object()) return std::nullopt;
        Property property{name, 0, {}, false, {}, {}, {}, {}};
        for (const auto& [keyword, argument] : schema.items()) {
          if (keyword == "type") {
            if (argument.is_array()) {
              if (argument.empty()) return std::nullopt;
              for (const json& each : argument) {
                const auto bit = typeBit(each);
                if (!bit) return std::nullopt;
                property.types |= *bit;
              }
            } else {
              const auto bit = typeBit(argument);
              if (!bit) return std::nullopt;
              property.types = *bit;
            }
          } else if (keyword == "enum") {
            if (!argument.is_array()) return std::nullopt;
            for (const json& each : argument) {
              if (!each.is_string()) return std::nullopt;
              property.allowed.push_back(each.get<std::string>());
            }
            property.hasEnum = true;
          } else if (keyword == "minimum" || keyword == "maximum" || keyword == "exclusiveMinimum" ||
                     keyword == "exclusiveMaximum") {
            // Draft 4's boolean exclusiveMinimum changes what minimum means: not covered.
            if (!argument.is_number()) return std::nullopt;
            auto& bound = keyword == "minimum"            ? property.minimum
                          : keyword == "maximum"          ? property.maximum
                          : keyword == "exclusiveMinimum" ? property.exclusiveMinimum
                                                          : property.exclusiveMaximum;
            bound = argument;
          } else if (!isAnnotation(keyword)) {
            return std::nullopt;
          }
        }
        acceptor.properties_.push_back(std::move(property));
      }
    } else if (!isAnnotation(key)) {
      return std::nullopt;
    }
  }
  if (!isObject) return std::nullopt;
  return acceptor;
}

bool FlatObjectAcceptor::memberAccepted(const Property& property, const json& value) const {
  if (property.types != 0) {
    unsigned bit = 0;
    switch (value.type()) {
    case json::value_t::string: bit = kString; break;
    // An integer is also a number. A float such as 2.0 is an integer to JSON Schema: left to valijson.
    case json::value_t::number_integer:
    case json::value_t::number_unsigned: bit = (property.types & kInteger) ? kInteger : kNumber; break;
    case json::value_t::number_float: bit = kNumber; break;
    case json::value_t::boolean: bit = kBoolean; break;
    case json::value_t::null: bit = kNull; break;
    default: return false;
    }
    if ((property.types & bit) == 0) return false;
  }
  if (property.hasEnum) {
    if (!value.is_string()) return false;
    const auto& text = value.get_ref<const std::string&>();
    if (std::find(property.allowed.begin(), property.allowed.end(), text) == property.allowed.end()) return false;
  }
  if (value.is_number()) {
    auto holds = [&value](const std::optional<json>& bound, auto wanted) {
      if (!bound) return true;
      const auto order = compareNumbers(value, *bound);
      return order.has_value() && wanted(*order);
    };
    if (!holds(property.minimum, [](int order) { return order >= 0; })) return false;
    if (!holds(property.maximum, [](int order) { return order <= 0; })) return false;
    if (!holds(property.exclusiveMinimum, [](int order) { return order > 0; })) return false;
    if (!holds(property.exclusiveMaximum, [](int order) { return order < 0; })) return false;
  }
  return true;
}

bool FlatObjectAcceptor::accepts(const json& value) const {
  if (!value.is_object()) return false;
  const auto& members = value.get_ref<const json::object_t&>();
  for (const auto& name : required_)
    if (members.find(name) == members.end()) return false;
  // Both sides are sorted by name: one merge walk.
  auto property = properties_.begin();
  for (const auto& [name, member] : members) {
    while (property != properties_.end() && property->name < name) ++property;
    if (property != properties_.end() && property->name == name) {
      if (!memberAccepted(*property, member)) return false;
    } else if (closed_) {
      return false;
    }
  }
  return true;
}

} // namespace toold::core::schema_detail
