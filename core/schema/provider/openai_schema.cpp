// OpenAI's function tools: the root must be one object without combinators (reference §3.2).
// The default profile is non-strict (`strict: false`, as opencode and Codex send it) with the
// property types a validator insists on inferred and `{type: "null"}` alternatives removed. The
// strict profile closes every object, requires every property and makes the optional ones
// nullable — recording them, so a model's `null` for one is removed before validation; a schema
// that cannot be made strict is sent non-strict with a note (reference §3.3).
#include "core/schema/provider/inline_refs.h"
#include "core/schema/provider/root_object.h"
#include "core/schema/provider_schema.h"

#include <set>

namespace toold::core::provider_schema {

namespace {

using json = nlohmann::json;

constexpr int kMaxStrictDepth = 10;
constexpr std::size_t kMaxStrictProperties = 5000;

bool isNullSchema(const json& member) { return member.is_object() && member.value("type", json()) == "null"; }

// Codex's inference for a property schema that says nothing of its type.
std::string inferredType(const json& node) {
  if (node.contains("properties") || node.contains("required") || node.contains("additionalProperties")) return "object";
  if (node.contains("items") || node.contains("prefixItems")) return "array";
  if (node.contains("enum") || node.contains("const") || node.contains("format")) return "string";
  for (const char* key : {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"})
    if (node.contains(key)) return "number";
  return "string";
}

void inferTypes(json& node) {
  if (!node.is_object()) return;
  if (auto it = node.find("properties"); it != node.end() && it->is_object())
    for (auto& [name, child] : it->items()) {
      if (!child.is_object()) continue;
      const bool said = child.contains("type") || child.contains("anyOf") || child.contains("oneOf") ||
                        child.contains("allOf") || child.contains("enum") || child.contains("const") ||
                        child.contains("$ref");
      if (!said) child["type"] = inferredType(child);
      inferTypes(child);
    }
  if (auto it = node.find("items"); it != node.end() && it->is_object()) inferTypes(*it);
}

// V2's removeNullSchemas: `{type: "null"}` alternatives go; a lone remaining one is merged into
// its parent.
void removeNullSchemas(json& node) {
  if (node.is_array()) {
    for (auto& element : node) removeNullSchemas(element);
    return;
  }
  if (!node.is_object()) return;
  for (auto& [key, value] : node.items())
    if (value.is_object() || value.is_array()) removeNullSchemas(value);
  auto it = node.find("anyOf");
  if (it == node.end() || !it->is_array()) return;
  json kept = json::array();
  for (auto& member : *it)
    if (!isNullSchema(member)) kept.push_back(member);
  if (kept.size() == it->size()) return;
  node.erase("anyOf");
  if (kept.size() == 1 && kept[0].is_object()) {
    for (auto& [key, value] : kept[0].items())
      if (!node.contains(key)) node[key] = value;
  } else if (!kept.empty()) {
    node["anyOf"] = std::move(kept);
  }
}

json nonStrict(const json& schema, std::string& note) {
  json root = rootAsObject(schema, RootAlternatives::MergeOptional, note);
  inferTypes(root);
  removeNullSchemas(root);
  return root;
}

bool allowsNull(const json& node) {
  if (!node.is_object()) return false;
  const json type = node.value("type", json());
  if (type == "null") return true;
  if (type.is_array())
    for (const auto& t : type)
      if (t == "null") return true;
  if (auto it = node.find("anyOf"); it != node.end() && it->is_array())
    for (const auto& member : *it)
      if (isNullSchema(member)) return true;
  return false;
}

void makeNullable(json& node) {
  if (node.contains("type") && node["type"].is_string() && !node.contains("$ref")) {
    node["type"] = json::array({node["type"], "null"});
    if (auto it = node.find("enum"); it != node.end() && it->is_array()) it->push_back(nullptr);
  } else if (node.contains("type") && node["type"].is_array()) {
    node["type"].push_back("null");
  } else if (node.contains("anyOf") && node["anyOf"].is_array()) {
    node["anyOf"].push_back(json{{"type", "null"}});
  } else {
    node = json{{"anyOf", json::array({node, json{{"type", "null"}}})}};
  }
}

// Keywords strict mode does not take: kept for the model as words in the description.
constexpr const char* kMovedToDescription[] = {"default",   "pattern",   "format",   "minimum",
                                               "maximum",   "exclusiveMinimum", "exclusiveMaximum",
                                               "multipleOf", "minLength", "maxLength", "minItems",
                                               "maxItems",  "uniqueItems", "minProperties", "maxProperties"};

struct Strictifier {
  std::string why; // set when the schema cannot be strict
  std::size_t properties = 0;

  bool fail(std::string reason) {
    if (why.empty()) why = std::move(reason);
    return false;
  }

  bool apply(json& node, json& undo, int depth) {
    if (!node.is_object()) return fail("a schema that is not an object");
    if (depth > kMaxStrictDepth) return fail("nested deeper than " + std::to_string(kMaxStrictDepth) + " levels");
    for (const char* key : {"not", "if", "then", "else", "patternProperties", "prefixItems", "dependentSchemas"})
      if (node.contains(key)) return fail(std::string("uses ") + key);
    node.erase("$schema");
    node.erase("$id");
    node.erase("title");
    if (auto it = node.find("const"); it != node.end()) {
      node["enum"] = json::array({*it});
      node.erase("const");
    }
    if (auto it = node.find("oneOf"); it != node.end()) {
      node["anyOf"] = *it;
      node.erase("oneOf");
    }
    if (auto it = node.find("allOf"); it != node.end()) {
      if (!it->is_array()) return fail("an allOf that is not an array");
      json merged = node;
      merged.erase("allOf");
      for (const auto& member : *it) {
        if (!member.is_object() || !member.contains("properties")) return fail("an allOf of non-objects");
        for (const auto& [name, schema] : member["properties"].items())
          if (!merged["properties"].contains(name)) merged["properties"][name] = schema;
        for (const auto& name : member.value("required", json::array())) merged["required"].push_back(name);
      }
      merged["type"] = "object";
      node = std::move(merged);
    }
    std::string moved;
    for (const char* key : kMovedToDescription)
      if (auto it = node.find(key); it != node.end()) {
        moved += (moved.empty() ? "" : ", ") + std::string(key) + ": " + it->dump();
        node.erase(it);
      }
    if (!moved.empty()) {
      const std::string description = node.value("description", std::string());
      node["description"] = description.empty() ? "(" + moved + ")" : description + " (" + moved + ")";
    }
    if (auto it = node.find("$defs"); it != node.end() && it->is_object())
      for (auto& [name, def] : it->items()) {
        json ignored;
        if (!apply(def, ignored, depth + 1)) return false;
      }
    if (node.contains("$ref")) return true;
    if (auto it = node.find("anyOf"); it != node.end()) {
      if (!it->is_array()) return fail("an anyOf that is not an array");
      for (auto& member : *it) {
        json ignored;
        if (!apply(member, ignored, depth + 1)) return false;
      }
      return true;
    }
    const json type = node.value("type", json());
    const bool object = type == "object" || node.contains("properties");
    if (object) return applyObject(node, undo, depth);
    if (type == "array" || (type.is_array() && type.size() == 2 && type[0] == "array")) {
      auto it = node.find("items");
      if (it == node.end() || !it->is_object()) return fail("an array without one items schema");
      json itemsUndo;
      if (!apply(*it, itemsUndo, depth + 1)) return false;
      if (!itemsUndo.is_null()) undo["items"] = std::move(itemsUndo);
      return true;
    }
    if (type.is_null() && !node.contains("enum")) return fail("a schema without a type");
    return true;
  }

  bool applyObject(json& node, json& undo, int depth) {
    if (auto it = node.find("additionalProperties"); it != node.end() && *it != false)
      return fail("an open map (additionalProperties)");
    node["type"] = "object";
    node["additionalProperties"] = false;
    if (!node.contains("properties") || !node["properties"].is_object()) node["properties"] = json::object();
    std::set<std::string> required;
    for (const auto& name : node.value("required", json::array()))
      if (name.is_string()) required.insert(name.get<std::string>());
    json all = json::array();
    json nullAbsent = json::array();
    for (auto& [name, child] : node["properties"].items()) {
      if (++properties > kMaxStrictProperties) return fail("more than 5000 properties");
      json childUndo;
      if (!apply(child, childUndo, depth + 1)) return false;
      if (!childUndo.is_null()) undo["properties"][name] = std::move(childUndo);
      all.push_back(name);
      if (required.count(name) || allowsNull(child)) continue;
      makeNullable(child);
      nullAbsent.push_back(name);
    }
    node["required"] = std::move(all);
    if (!nullAbsent.empty()) undo["nullAbsent"] = std::move(nullAbsent);
    return true;
  }
};

} // namespace

ProjectedSchema projectOpenAI(const json& schema, bool strict) {
  ProjectedSchema result;
  if (strict) {
    std::string note;
    json root = rootAsObject(schema, RootAlternatives::MergeOptional, note);
    json undo;
    Strictifier strictifier;
    if (strictifier.apply(root, undo, 1)) {
      result.schema = std::move(root);
      result.undo = std::move(undo);
      result.strict = true;
      result.note = std::move(note);
      return result;
    }
    result.note = "cannot be strict (" + strictifier.why + "); sent with strict: false";
  }
  std::string note;
  result.schema = nonStrict(schema, note);
  if (!note.empty()) result.note += (result.note.empty() ? "" : "; ") + note;
  result.strict = false;
  return result;
}

ProjectedSchema projectOpenAICompatible(const json& schema) {
  return projectOpenAI(inlineLocalRefs(schema), false);
}

ProjectedSchema projectXAI(const json& schema) {
  ProjectedSchema result = projectOpenAI(schema, false);
  // xAI refuses `additionalProperties: false` (as @ai-sdk/xai strips it).
  std::vector<json*> work{&*result.schema};
  while (!work.empty()) {
    json* node = work.back();
    work.pop_back();
    if (node->is_object()) {
      if (auto it = node->find("additionalProperties"); it != node->end() && *it == false) node->erase(it);
      for (auto& [key, value] : node->items()) work.push_back(&value);
    } else if (node->is_array()) {
      for (auto& element : *node) work.push_back(&element);
    }
  }
  result.strict.reset();
  return result;
}

} // namespace toold::core::provider_schema
