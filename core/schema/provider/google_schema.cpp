// Gemini's `functionDeclarations[].parameters` is an OpenAPI 3.0 subset, not JSON Schema: one
// `type`, `nullable` instead of type lists, enums of strings only, arrays that name their items,
// no `$ref`, `additionalProperties`, `default` or `pattern`. This is opencode's sanitiser plus the
// AI SDK's allow-list projection, with the AI SDK's newer enum form: a number or boolean enum keeps
// its type, gains `format: "enum"` and has its members stringified — and the undo tree turns a
// model's "2" back into 2 before validation (provider-schemas reference §2).
#include "core/schema/provider_schema.h"

#include <set>
#include <string>

namespace toold::core::provider_schema {

namespace {

using json = nlohmann::json;

// What tells an array's `items` what it holds; an `items` with none of these gets `type: string`.
const std::set<std::string, std::less<>> kIntentKeys = {
    "type", "properties", "items", "prefixItems", "enum", "const", "$ref", "additionalProperties",
    "patternProperties", "required", "not", "if", "then", "else", "anyOf", "oneOf", "allOf"};

bool hasCombiner(const json& node) {
  return node.contains("anyOf") || node.contains("oneOf") || node.contains("allOf");
}

bool isNullSchema(const json& member) {
  return member.is_object() && member.value("type", json()) == "null";
}

std::string typeOfMembers(const json& members) {
  bool integers = true, numbers = true, booleans = true;
  for (const auto& m : members) {
    integers = integers && m.is_number_integer();
    numbers = numbers && m.is_number();
    booleans = booleans && m.is_boolean();
  }
  if (integers) return "integer";
  if (numbers) return "number";
  if (booleans) return "boolean";
  return "string";
}

json project(const json& node, json& undo);

// Enum members become strings; "" members are dropped (Gemini: "enum[0]: cannot be empty"), and
// a null member becomes `nullable`. Non-string members are recorded for the way back.
void projectEnum(const json& members, json& out, json& undo) {
  json strings = json::array();
  json originals = json::array();
  bool nonString = false;
  for (const auto& member : members) {
    if (member.is_null()) {
      out["nullable"] = true;
      continue;
    }
    if (!member.is_string()) nonString = true;
    std::string text = member.is_string() ? member.get<std::string>() : member.dump();
    if (text.empty()) continue;
    strings.push_back(std::move(text));
    originals.push_back(member);
  }
  if (strings.empty()) return;
  out["enum"] = std::move(strings);
  if (!nonString) {
    if (!out.contains("type")) out["type"] = "string";
    return;
  }
  if (!out.contains("type") || out["type"] == "string") out["type"] = typeOfMembers(originals);
  out["format"] = "enum";
  undo["enum"] = std::move(originals);
}

void projectType(const json& type, json& out) {
  if (type.is_string()) {
    out["type"] = type;
    return;
  }
  if (!type.is_array()) return;
  for (const auto& t : type) {
    if (t == "null") out["nullable"] = true;
    else if (t.is_string() && !out.contains("type")) out["type"] = t;
  }
  if (!out.contains("type") && out.value("nullable", false)) out["type"] = "null";
}

void projectCombiner(const json& node, const char* key, json& out) {
  auto it = node.find(key);
  if (it == node.end() || !it->is_array()) return;
  json members = json::array();
  bool nullable = false;
  for (const auto& member : *it) {
    if (std::string_view(key) != "allOf" && isNullSchema(member)) {
      nullable = true;
      continue;
    }
    json ignored;
    members.push_back(project(member, ignored));
  }
  if (nullable) out["nullable"] = true;
  // One alternative left beside the null: it is the schema (AI SDK: merged in with nullable).
  if (members.size() == 1 && std::string_view(key) != "allOf") {
    for (auto& [k, v] : members[0].items())
      if (!out.contains(k)) out[k] = v;
    return;
  }
  if (!members.empty()) out[key] = std::move(members);
}

json project(const json& node, json& undo) {
  json out = json::object();
  if (!node.is_object() || node.contains("$ref")) return out; // a reference projects to "anything"
  if (auto it = node.find("description"); it != node.end() && it->is_string()) out["description"] = *it;
  if (auto it = node.find("type"); it != node.end()) projectType(*it, out);
  for (const char* key : {"format", "minLength", "minItems", "maxItems"})
    if (auto it = node.find(key); it != node.end()) out[key] = *it;
  if (auto it = node.find("const"); it != node.end()) projectEnum(json::array({*it}), out, undo);
  else if (auto e = node.find("enum"); e != node.end() && e->is_array()) projectEnum(*e, out, undo);
  for (const char* key : {"anyOf", "oneOf", "allOf"}) projectCombiner(node, key, out);
  if (auto it = node.find("properties"); it != node.end() && it->is_object()) {
    json properties = json::object();
    for (const auto& [name, child] : it->items()) {
      json childUndo;
      properties[name] = project(child, childUndo);
      if (!childUndo.is_null()) undo["properties"][name] = std::move(childUndo);
    }
    out["properties"] = std::move(properties);
  }
  if (auto it = node.find("required"); it != node.end() && it->is_array() && out.contains("properties")) {
    json required = json::array();
    for (const auto& name : *it)
      if (name.is_string() && out["properties"].contains(name.get<std::string>())) required.push_back(name);
    if (!required.empty()) out["required"] = std::move(required);
  }
  const std::string type = out.value("type", std::string());
  if (type == "array" && !hasCombiner(out)) {
    json items = json::object();
    auto it = node.find("items");
    if (it != node.end() && it->is_object()) {
      json itemsUndo;
      items = project(*it, itemsUndo);
      if (!itemsUndo.is_null()) undo["items"] = std::move(itemsUndo);
    } else if (it != node.end() && it->is_array() && !it->empty()) {
      // A tuple: Gemini has one `items`; its alternatives say what any element may be.
      json members = json::array();
      for (const auto& element : *it) {
        json ignored;
        members.push_back(project(element, ignored));
      }
      items = members.size() == 1 ? members[0] : json{{"anyOf", members}};
    }
    bool intent = false;
    for (const auto& [key, value] : items.items()) intent = intent || kIntentKeys.count(key) > 0;
    if (!intent) items["type"] = "string";
    out["items"] = std::move(items);
  }
  if (!type.empty() && type != "object" && !hasCombiner(out)) {
    out.erase("properties");
    out.erase("required");
  }
  return out;
}

} // namespace

ProjectedSchema projectGoogle(const json& schema) {
  ProjectedSchema result;
  json undo;
  json projected = project(schema, undo);
  // A tool without inputs is declared without `parameters` (Gemini refuses an empty object).
  const bool empty = projected.value("type", std::string("object")) == "object" && !hasCombiner(projected) &&
                     (!projected.contains("properties") || projected["properties"].empty());
  if (!empty) result.schema = std::move(projected);
  result.undo = std::move(undo);
  return result;
}

} // namespace toold::core::provider_schema
