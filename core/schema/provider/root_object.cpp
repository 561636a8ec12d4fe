#include "core/schema/provider/root_object.h"

#include <optional>
#include <set>

namespace toold::core::provider_schema {

using json = nlohmann::json;

namespace {

void mergeProperties(json& into, const json& variant) {
  auto it = variant.find("properties");
  if (it == variant.end() || !it->is_object()) return;
  for (const auto& [name, schema] : it->items())
    if (!into.contains(name)) into[name] = schema; // the first variant naming a property wins
}

std::set<std::string> requiredOf(const json& node) {
  std::set<std::string> names;
  if (auto it = node.find("required"); it != node.end() && it->is_array())
    for (const auto& name : *it)
      if (name.is_string()) names.insert(name.get<std::string>());
  return names;
}

json sortedArray(const std::set<std::string>& names) {
  json array = json::array();
  for (const auto& name : names) array.push_back(name);
  return array;
}

} // namespace

json rootAsObject(const json& schema, RootAlternatives alternatives, std::string& note) {
  json root = schema.is_object() ? schema : json::object();
  json properties = root.contains("properties") && root["properties"].is_object() ? root["properties"] : json::object();
  std::set<std::string> required = requiredOf(root);

  if (auto it = root.find("allOf"); it != root.end() && it->is_array()) {
    for (const auto& member : *it) {
      mergeProperties(properties, member);
      auto names = requiredOf(member);
      required.insert(names.begin(), names.end());
    }
    root.erase("allOf");
    note += "root allOf merged into one object; ";
  }
  for (const char* key : {"anyOf", "oneOf"}) {
    auto it = root.find(key);
    if (it == root.end() || !it->is_array()) continue;
    std::optional<std::set<std::string>> common;
    std::set<std::string> atLeastOne;
    for (const auto& variant : *it) {
      if (!variant.is_object()) continue;
      const bool hasProperties = variant.contains("properties");
      mergeProperties(properties, variant);
      auto names = requiredOf(variant);
      if (!hasProperties) {
        atLeastOne.insert(names.begin(), names.end());
        continue;
      }
      if (!common) {
        common = names;
      } else {
        std::set<std::string> both;
        for (const auto& n : *common)
          if (names.count(n)) both.insert(n);
        common = std::move(both);
      }
    }
    root.erase(key);
    if (alternatives == RootAlternatives::MergeCommonRequired) {
      if (common) required.insert(common->begin(), common->end());
      if (!atLeastOne.empty()) {
        std::string sentence = "Provide at least one of: ";
        bool first = true;
        for (const auto& name : atLeastOne) {
          sentence += (first ? "" : ", ") + name;
          first = false;
        }
        sentence += ".";
        const std::string description = root.value("description", std::string());
        root["description"] = description.empty() ? sentence : description + " " + sentence;
      }
    } else {
      root["additionalProperties"] = false;
    }
    note += std::string("root ") + key + " alternatives merged into one object; ";
  }
  for (const char* key : {"enum", "const", "not", "if", "then", "else"}) root.erase(key);
  root["type"] = "object";
  root["properties"] = std::move(properties);
  if (required.empty()) root.erase("required");
  else root["required"] = sortedArray(required);
  if (note.ends_with("; ")) note.resize(note.size() - 2);
  return root;
}

} // namespace toold::core::provider_schema
