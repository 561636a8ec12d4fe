// Compiling the leaf keywords (type, enum, const, bounds, lengths, pattern, format, uniqueItems,
// required) out of a schema object into the LeafAssertions toold checks itself
// (schema_assertions.cpp), with the errors that name a bad keyword and where it is.
#include "core/schema/schema_assertions.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace toold::core::schema_detail {

namespace {

bool isTypeName(const json& name) {
  static const std::vector<std::string> kNames = {"null", "boolean", "object", "array", "number", "integer", "string"};
  return name.is_string() && std::find(kNames.begin(), kNames.end(), name.get<std::string>()) != kNames.end();
}

bool isCount(const json& value) {
  return value.is_number_unsigned() || (value.is_number_integer() && value.get<std::int64_t>() >= 0);
}

}  // namespace

std::string shortJson(const json& value) {
  std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
  if (text.size() <= 80) return text;
  std::size_t cut = 77;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return text.substr(0, cut) + "...";
}

bool isStringArray(const json& value) {
  return value.is_array() && std::all_of(value.begin(), value.end(), [](const json& v) { return v.is_string(); });
}

SchemaError invalidKeyword(std::string_view keyword, std::string_view where, std::string_view expected) {
  return SchemaError("Invalid \"" + std::string(keyword) + "\" at " + std::string(where) + ": expected " +
                     std::string(expected));
}

Regex compilePattern(const std::string& source, std::string_view keyword, std::string_view where) {
  try {
    return Regex(source);
  } catch (const RegexError& error) {
    throw SchemaError("Invalid regular expression in \"" + std::string(keyword) + "\" at " + std::string(where) +
                      ": " + shortJson(source) + " (" + error.what() + ")");
  }
}

void takeLeafAssertions(json& node, std::string_view where, LeafAssertions& into) {
  auto take = [&node](const char* keyword) -> std::optional<json> {
    const auto it = node.find(keyword);
    if (it == node.end()) return std::nullopt;
    json value = std::move(*it);
    node.erase(it);
    return value;
  };
  if (auto type = take("type")) {
    const json list = type->is_array() ? *type : json::array({*type});
    if (list.empty() || !std::all_of(list.begin(), list.end(), isTypeName))
      throw invalidKeyword("type", where,
                           "a type name (null, boolean, object, array, number, integer, string) or an array of them");
    for (const json& name : list) into.types.push_back(name.get<std::string>());
  }
  if (auto values = take("enum")) {
    if (!values->is_array()) throw invalidKeyword("enum", where, "an array");
    into.enumValues = std::move(values);
  }
  if (auto value = take("const")) into.constValue = std::move(value);
  const std::pair<const char*, std::optional<json>*> numbers[] = {{"minimum", &into.minimum},
                                                                 {"maximum", &into.maximum},
                                                                 {"exclusiveMinimum", &into.exclusiveMinimum},
                                                                 {"exclusiveMaximum", &into.exclusiveMaximum},
                                                                 {"multipleOf", &into.multipleOf}};
  for (const auto& [keyword, slot] : numbers) {
    if (auto value = take(keyword)) {
      if (!value->is_number()) throw invalidKeyword(keyword, where, "a number");
      *slot = std::move(value);
    }
  }
  if (into.multipleOf && !(into.multipleOf->get<double>() > 0))
    throw invalidKeyword("multipleOf", where, "a number above 0");
  const std::pair<const char*, std::optional<std::uint64_t>*> counts[] = {
      {"minLength", &into.minLength}, {"maxLength", &into.maxLength},         {"minItems", &into.minItems},
      {"maxItems", &into.maxItems},   {"minProperties", &into.minProperties}, {"maxProperties", &into.maxProperties}};
  for (const auto& [keyword, slot] : counts) {
    if (auto value = take(keyword)) {
      if (!isCount(*value)) throw invalidKeyword(keyword, where, "a non-negative integer");
      *slot = value->get<std::uint64_t>();
    }
  }
  if (auto pattern = take("pattern")) {
    if (!pattern->is_string()) throw invalidKeyword("pattern", where, "a string");
    into.pattern = compilePattern(pattern->get<std::string>(), "pattern", where);
  }
  // Always taken: valijson would apply any format to non-strings too, and throw on objects.
  if (auto format = take("format")) {
    if (!format->is_string()) throw invalidKeyword("format", where, "a string");
    const std::string name = format->get<std::string>();
    if (name == "date" || name == "time" || name == "date-time") into.format = name;
  }
  if (auto unique = take("uniqueItems")) {
    if (!unique->is_boolean()) throw invalidKeyword("uniqueItems", where, "a boolean");
    into.uniqueItems = unique->get<bool>();
  }
  if (auto required = take("required")) {
    if (!isStringArray(*required)) throw invalidKeyword("required", where, "an array of strings");
    for (const json& key : *required) into.required.push_back(key.get<std::string>());
  }
}

}  // namespace toold::core::schema_detail
