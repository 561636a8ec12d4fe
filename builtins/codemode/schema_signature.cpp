#include "builtins/codemode/schema_signature.h"

#include "builtins/codemode/tool_path.h"

#include <algorithm>
#include <set>
#include <vector>

namespace toold::codemode {

using json = nlohmann::json;

namespace {

constexpr int kMaxDepth = 8;

std::string indentation(int depth) { return std::string(static_cast<std::size_t>(depth) * 2, ' '); }

std::string propertyKey(const std::string& key) { return isIdentifierSegment(key) ? key : json(key).dump(); }

// A JSDoc comment's text may not close it early.
std::string neutralised(std::string text) {
  for (std::size_t at = text.find("*/"); at != std::string::npos; at = text.find("*/", at + 2)) text.replace(at, 2, "*\\/");
  return text;
}

std::vector<std::string> docLines(const json& schema) {
  std::vector<std::string> lines;
  if (!schema.is_object()) return lines;
  if (auto it = schema.find("description"); it != schema.end() && it->is_string()) {
    const std::string& text = it->get_ref<const std::string&>();
    std::size_t start = 0;
    while (start <= text.size()) {
      const std::size_t end = text.find('\n', start);
      std::string line = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
      while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
      if (!line.empty()) lines.push_back(neutralised(line));
      if (end == std::string::npos) break;
      start = end + 1;
    }
  }
  if (schema.value("deprecated", false) == true) lines.emplace_back("@deprecated");
  if (auto it = schema.find("default"); it != schema.end()) lines.push_back(neutralised("@default " + it->dump()));
  if (auto it = schema.find("format"); it != schema.end() && it->is_string())
    lines.push_back(neutralised("@format " + it->get<std::string>()));
  for (const char* key : {"minItems", "maxItems"})
    if (auto it = schema.find(key); it != schema.end() && it->is_number())
      lines.push_back(std::string("@") + key + " " + it->dump());
  return lines;
}

std::string docComment(const std::vector<std::string>& lines, int depth) {
  if (lines.empty()) return "";
  const std::string pad = indentation(depth);
  if (lines.size() == 1) return pad + "/** " + lines[0] + " */\n";
  std::string out = pad + "/**\n";
  for (const auto& line : lines) out += pad + " * " + line + "\n";
  return out + pad + " */\n";
}

class TypeRenderer {
public:
  explicit TypeRenderer(const json& root) : root_(root) {}

  std::string render(const json& schema, int depth, int nesting) {
    if (nesting > kMaxDepth || !schema.is_object()) return "unknown";
    if (auto ref = schema.find("$ref"); ref != schema.end()) return renderRef(*ref, depth, nesting);
    if (auto it = schema.find("const"); it != schema.end()) return it->dump();
    if (auto it = schema.find("enum"); it != schema.end() && it->is_array() && !it->empty()) {
      std::vector<std::string> members;
      for (const auto& value : *it) members.push_back(value.dump());
      return joinUnion(members);
    }
    for (const char* key : {"anyOf", "oneOf"})
      if (auto it = schema.find(key); it != schema.end() && it->is_array() && !it->empty()) {
        std::vector<std::string> members;
        for (const auto& member : *it) members.push_back(render(member, depth, nesting + 1));
        return joinUnion(members);
      }
    if (auto it = schema.find("allOf"); it != schema.end() && it->is_array() && !it->empty()) {
      std::string out;
      for (const auto& member : *it) out += (out.empty() ? "" : " & ") + render(member, depth, nesting + 1);
      return out;
    }
    auto type = schema.find("type");
    if (type != schema.end() && type->is_array()) {
      std::vector<std::string> members;
      for (const auto& name : *type)
        if (name.is_string()) members.push_back(renderNamed(name.get<std::string>(), schema, depth, nesting));
      return members.empty() ? "unknown" : joinUnion(members);
    }
    if (type != schema.end() && type->is_string()) return renderNamed(type->get<std::string>(), schema, depth, nesting);
    if (schema.contains("properties") || schema.contains("additionalProperties")) return renderObject(schema, depth, nesting);
    if (schema.contains("items")) return renderNamed("array", schema, depth, nesting);
    return "unknown";
  }

private:
  static std::string joinUnion(std::vector<std::string> members) {
    std::vector<std::string> unique;
    for (auto& member : members)
      if (std::find(unique.begin(), unique.end(), member) == unique.end()) unique.push_back(std::move(member));
    std::string out;
    for (const auto& member : unique) out += (out.empty() ? "" : " | ") + member;
    return out;
  }

  std::string renderRef(const json& ref, int depth, int nesting) {
    if (!ref.is_string()) return "unknown";
    const std::string& pointer = ref.get_ref<const std::string&>();
    if (pointer.empty() || pointer[0] != '#' || resolving_.count(pointer) != 0) return "unknown";
    const json* target = nullptr;
    try {
      target = &root_.at(json::json_pointer(pointer.substr(1)));
    } catch (const std::exception&) {
      return "unknown";
    }
    resolving_.insert(pointer);
    std::string out = render(*target, depth, nesting + 1);
    resolving_.erase(pointer);
    return out;
  }

  std::string renderNamed(const std::string& name, const json& schema, int depth, int nesting) {
    if (name == "string" || name == "boolean" || name == "null") return name;
    if (name == "number" || name == "integer") return "number";
    if (name == "array") {
      auto items = schema.find("items");
      if (items == schema.end() || !items->is_object()) return "Array<unknown>";
      return "Array<" + render(*items, depth, nesting + 1) + ">";
    }
    if (name == "object") return renderObject(schema, depth, nesting);
    return "unknown";
  }

  std::string renderObject(const json& schema, int depth, int nesting) {
    std::set<std::string> required;
    if (auto it = schema.find("required"); it != schema.end() && it->is_array())
      for (const auto& key : *it)
        if (key.is_string()) required.insert(key.get<std::string>());
    std::string body;
    if (auto it = schema.find("properties"); it != schema.end() && it->is_object())
      for (const auto& [key, property] : it->items()) {
        body += docComment(docLines(property), depth + 1);
        body += indentation(depth + 1) + propertyKey(key) + (required.count(key) ? "" : "?") + ": " +
                render(property, depth + 1, nesting + 1) + ",\n";
      }
    if (auto it = schema.find("additionalProperties"); it != schema.end() && it->is_object())
      body += indentation(depth + 1) + "[key: string]: " + render(*it, depth + 1, nesting + 1) + ",\n";
    if (body.empty()) return "{}";
    return "{\n" + body + indentation(depth) + "}";
  }

  const json& root_;
  std::set<std::string> resolving_;
};

bool takesNoInput(const json& schema) {
  if (!schema.is_object()) return false;
  auto properties = schema.find("properties");
  const bool noProperties = properties == schema.end() || (properties->is_object() && properties->empty());
  return noProperties && !schema.contains("additionalProperties") && !schema.contains("$ref") &&
         !schema.contains("anyOf") && !schema.contains("oneOf") && !schema.contains("allOf") &&
         (schema.value("type", json("object")) == "object");
}

} // namespace

std::string renderSchemaType(const json& schema, const json& root, int depth) {
  return TypeRenderer(root).render(schema, depth, 0);
}

std::string renderSignature(const std::string& pathExpression, const json& inputSchema,
                            const std::optional<json>& outputSchema) {
  const std::string result = outputSchema ? renderSchemaType(*outputSchema, *outputSchema) : "string | null";
  if (takesNoInput(inputSchema)) return pathExpression + "(): Promise<" + result + ">";
  return pathExpression + "(input: " + renderSchemaType(inputSchema, inputSchema) + "): Promise<" + result + ">";
}

} // namespace toold::codemode
