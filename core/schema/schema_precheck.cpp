#include "core/schema/schema_precheck.h"

#include "core/schema/schema_limits.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace toold::core {

namespace {

using nlohmann::json;

// Schemas nested deeper, or with more keywords, are rare enough to be compiled at once.
constexpr std::size_t kMaxDepth = 16;
constexpr std::size_t kMaxKeywords = 2'000;

bool isTypeName(const json& value) {
  if (!value.is_string()) return false;
  constexpr std::array<std::string_view, 7> kTypes = {"object", "array", "string", "integer", "number", "boolean", "null"};
  const auto& name = value.get_ref<const std::string&>();
  return std::find(kTypes.begin(), kTypes.end(), name) != kTypes.end();
}

bool isTypeKeyword(const json& value) {
  if (isTypeName(value)) return true;
  if (!value.is_array() || value.empty()) return false;
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (!isTypeName(value[i])) return false;
    for (std::size_t j = 0; j < i; ++j)
      if (value[j] == value[i]) return false;
  }
  return true;
}

bool isScalar(const json& value) { return value.is_string() || value.is_number() || value.is_boolean() || value.is_null(); }

bool isCount(const json& value) { return value.is_number_unsigned() || (value.is_number_integer() && value.get<std::int64_t>() >= 0); }

bool isFiniteNumber(const json& value) {
  if (!value.is_number()) return false;
  const double number = value.get<double>();
  return number == number && number - number == 0.0;  // neither NaN nor infinite
}

// Checked pairwise, so only for short lists: a longer one is left to the compiler.
constexpr std::size_t kMaxRequired = 64;

bool isUniqueStrings(const json& value) {
  if (!value.is_array() || value.size() > kMaxRequired) return false;
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (!value[i].is_string()) return false;
    for (std::size_t j = 0; j < i; ++j)
      if (value[j] == value[i]) return false;
  }
  return true;
}

class Precheck {
public:
  bool schema(const json& value, std::size_t depth) {
    if (!value.is_object() || depth > kMaxDepth) return false;
    for (const auto& [key, argument] : value.items()) {
      if (++keywords_ > kMaxKeywords || !keyword(key, argument, depth)) return false;
    }
    return true;
  }

private:
  bool keyword(const std::string& key, const json& argument, std::size_t depth) {
    if (key == "type") return isTypeKeyword(argument);
    if (key == "properties") {
      if (!argument.is_object()) return false;
      for (const auto& [name, member] : argument.items())
        if (!schema(member, depth + 1)) return false;
      return true;
    }
    if (key == "required") return isUniqueStrings(argument) && !argument.empty();
    if (key == "additionalProperties") return argument.is_boolean() || schema(argument, depth + 1);
    if (key == "items") return schema(argument, depth + 1);
    if (key == "enum") {
      if (!argument.is_array() || argument.empty()) return false;
      return std::all_of(argument.begin(), argument.end(), isScalar);
    }
    if (key == "const") return isScalar(argument);
    if (key == "minimum" || key == "maximum" || key == "exclusiveMinimum" || key == "exclusiveMaximum")
      return isFiniteNumber(argument);
    if (key == "multipleOf") return isFiniteNumber(argument) && argument.get<double>() > 0;
    if (key == "minLength" || key == "maxLength" || key == "minItems" || key == "maxItems" || key == "minProperties" ||
        key == "maxProperties")
      return isCount(argument);
    if (key == "uniqueItems" || key == "deprecated" || key == "readOnly" || key == "writeOnly")
      return argument.is_boolean();
    if (key == "format" || key == "title" || key == "description" || key == "$comment") return argument.is_string();
    if (key == "default") return true;
    if (key == "examples") return argument.is_array();
    return false;  // anything else is for the compiler to judge
  }

  std::size_t keywords_ = 0;
};

} // namespace

bool compilesForCertain(const json& document) {
  if (!Precheck{}.schema(document, 1)) return false;
  try {
    checkSchemaSize(document);  // the values of "default" and "examples", and long strings, count too
  } catch (const SchemaError&) {
    return false;
  }
  return true;
}

} // namespace toold::core
