// Moonshot (Kimi) expands `$ref` itself and refuses keywords beside one, and knows no tuples
// (reference §5, opencode V2's ToolSchemaProjection.moonshot).
#include "core/schema/provider_schema.h"

namespace toold::core::provider_schema {

namespace {

using json = nlohmann::json;

json alternatives(const json& elements) {
  if (elements.empty()) return json::object();
  if (elements.size() == 1) return elements[0];
  return json{{"anyOf", elements}};
}

void project(json& node) {
  if (node.is_array()) {
    for (auto& element : node) project(element);
    return;
  }
  if (!node.is_object()) return;
  if (auto it = node.find("$ref"); it != node.end() && it->is_string()) {
    node = json{{"$ref", *it}};
    return;
  }
  if (auto it = node.find("items"); it != node.end() && it->is_array()) node["items"] = alternatives(*it);
  if (auto it = node.find("prefixItems"); it != node.end()) {
    if (!node.contains("items") && it->is_array()) node["items"] = alternatives(*it);
    node.erase("prefixItems");
  }
  node.erase("unevaluatedItems");
  for (auto& [key, value] : node.items())
    if (key != "enum" && key != "const" && key != "default" && key != "examples") project(value);
}

} // namespace

ProjectedSchema projectMoonshot(const json& schema) {
  ProjectedSchema result;
  json projected = schema;
  project(projected);
  result.schema = std::move(projected);
  return result;
}

} // namespace toold::core::provider_schema
