#include "builtins/codemode/catalog_entry.h"

#include "builtins/codemode/schema_signature.h"

#include <algorithm>

namespace toold::codemode {

namespace {

std::string lowercase(std::string text) {
  for (char& c : text)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return text;
}

} // namespace

CatalogEntry makeCatalogEntry(ToolPath path, std::string description, const nlohmann::json& inputSchema,
                              const std::optional<nlohmann::json>& outputSchema) {
  CatalogEntry entry;
  entry.key = dottedPath(path);
  entry.expression = pathExpression(path);
  entry.signature = renderSignature(entry.expression, inputSchema, outputSchema);
  std::string text = entry.key + " " + description;
  if (inputSchema.is_object())
    if (auto properties = inputSchema.find("properties"); properties != inputSchema.end() && properties->is_object())
      for (const auto& [name, property] : properties->items()) {
        text += " " + name;
        if (property.is_object())
          if (auto doc = property.find("description"); doc != property.end() && doc->is_string())
            text += " " + doc->get<std::string>();
      }
  entry.searchText = lowercase(std::move(text));
  entry.path = std::move(path);
  entry.description = std::move(description);
  return entry;
}

void sortCatalog(std::vector<CatalogEntry>& entries) {
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.key < b.key; });
}

} // namespace toold::codemode

namespace toold::codemode {

nlohmann::json catalogEntryToJson(const CatalogEntry& entry) {
  return {{"path", entry.path},           {"key", entry.key},           {"expression", entry.expression},
          {"description", entry.description}, {"signature", entry.signature}, {"searchText", entry.searchText}};
}

CatalogEntry catalogEntryFromJson(const nlohmann::json& value) {
  CatalogEntry entry;
  entry.path = value.at("path").get<ToolPath>();
  entry.key = value.at("key").get<std::string>();
  entry.expression = value.at("expression").get<std::string>();
  entry.description = value.at("description").get<std::string>();
  entry.signature = value.at("signature").get<std::string>();
  entry.searchText = value.at("searchText").get<std::string>();
  return entry;
}

} // namespace toold::codemode
