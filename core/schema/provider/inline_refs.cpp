// OpenAI-compatible backends that do not resolve `$ref` (DeepSeek through Fireworks, MiniMax:
// "Error resolving schema reference") get local references inlined (provider-schemas
// reference §3.1). A recursive reference cannot be inlined and stays, with its definitions.
#include "core/schema/provider/inline_refs.h"

#include <set>

namespace toold::core::provider_schema {

namespace {

using json = nlohmann::json;

// The definition `ref` names in `root` ("#/$defs/X" or "#/definitions/X"); null when not local.
const json* definitionOf(const json& root, const std::string& ref) {
  for (const char* section : {"$defs", "definitions"}) {
    const std::string prefix = std::string("#/") + section + "/";
    if (!ref.starts_with(prefix)) continue;
    auto it = root.find(section);
    if (it == root.end() || !it->is_object()) return nullptr;
    auto def = it->find(ref.substr(prefix.size()));
    return def == it->end() ? nullptr : &*def;
  }
  return nullptr;
}

// `path` holds the references being expanded above this node: one met again is a cycle.
json inlined(const json& node, const json& root, std::set<std::string>& path, bool& keptRef) {
  if (node.is_array()) {
    json out = json::array();
    for (const auto& element : node) out.push_back(inlined(element, root, path, keptRef));
    return out;
  }
  if (!node.is_object()) return node;
  if (auto ref = node.find("$ref"); ref != node.end() && ref->is_string()) {
    const std::string name = *ref;
    const json* definition = definitionOf(root, name);
    if (definition == nullptr || path.count(name)) {
      keptRef = true;
      return node;
    }
    path.insert(name);
    json expanded = inlined(*definition, root, path, keptRef);
    path.erase(name);
    // Keywords beside the reference (a description) stay, over the definition's.
    if (expanded.is_object())
      for (const auto& [key, value] : node.items())
        if (key != "$ref") expanded[key] = inlined(value, root, path, keptRef);
    return expanded;
  }
  json out = json::object();
  for (const auto& [key, value] : node.items()) {
    if (key == "enum" || key == "const" || key == "default" || key == "examples") out[key] = value;
    else out[key] = inlined(value, root, path, keptRef);
  }
  return out;
}

} // namespace

json inlineLocalRefs(const json& schema) {
  std::set<std::string> path;
  bool keptRef = false;
  json out = inlined(schema, schema, path, keptRef);
  if (!keptRef && out.is_object()) {
    out.erase("$defs");
    out.erase("definitions");
  }
  return out;
}

} // namespace toold::core::provider_schema
