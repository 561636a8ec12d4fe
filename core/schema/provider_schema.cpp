#include "core/schema/provider_schema.h"

namespace toold::core {

using json = nlohmann::json;

std::optional<SchemaProvider> parseSchemaProvider(std::string_view name) {
  if (name == "raw") return SchemaProvider::Raw;
  if (name == "anthropic") return SchemaProvider::Anthropic;
  if (name == "openai") return SchemaProvider::OpenAI;
  if (name == "openai-strict") return SchemaProvider::OpenAIStrict;
  if (name == "openai-compatible") return SchemaProvider::OpenAICompatible;
  if (name == "google" || name == "gemini") return SchemaProvider::Google;
  if (name == "moonshot") return SchemaProvider::Moonshot;
  if (name == "xai") return SchemaProvider::XAI;
  return std::nullopt;
}

ProjectedSchema projectSchema(const json& schema, SchemaProvider provider) {
  switch (provider) {
  case SchemaProvider::Raw: return ProjectedSchema{schema, json(), std::nullopt, {}};
  case SchemaProvider::Anthropic: return provider_schema::projectAnthropic(schema);
  case SchemaProvider::OpenAI: return provider_schema::projectOpenAI(schema, false);
  case SchemaProvider::OpenAIStrict: return provider_schema::projectOpenAI(schema, true);
  case SchemaProvider::OpenAICompatible: return provider_schema::projectOpenAICompatible(schema);
  case SchemaProvider::Google: return provider_schema::projectGoogle(schema);
  case SchemaProvider::Moonshot: return provider_schema::projectMoonshot(schema);
  case SchemaProvider::XAI: return provider_schema::projectXAI(schema);
  }
  return ProjectedSchema{schema, json(), std::nullopt, {}};
}

namespace {

// A stringified member is matched the way it was produced (json's own compact text), so "2"
// becomes 2 and "true" becomes true, and nothing else changes.
void undoEnum(json& value, const json& members) {
  if (!value.is_string()) return;
  for (const auto& member : members) {
    if (member.is_string()) continue;
    if (member.dump() == value.get_ref<const std::string&>()) {
      value = member;
      return;
    }
  }
}

} // namespace

void undoProjection(json& input, const json& undo) {
  // Iterative over (value, undo) pairs: an input may be deep, an undo tree is as deep as its schema.
  std::vector<std::pair<json*, const json*>> work{{&input, &undo}};
  while (!work.empty()) {
    auto [value, node] = work.back();
    work.pop_back();
    if (!node->is_object()) continue;
    if (auto it = node->find("enum"); it != node->end()) undoEnum(*value, *it);
    if (value->is_object()) {
      if (auto it = node->find("nullAbsent"); it != node->end())
        for (const auto& name : *it)
          if (auto field = value->find(name.get<std::string>()); field != value->end() && field->is_null())
            value->erase(field);
      if (auto it = node->find("properties"); it != node->end())
        for (const auto& [name, child] : it->items())
          if (auto field = value->find(name); field != value->end()) work.emplace_back(&*field, &child);
    }
    if (value->is_array())
      if (auto it = node->find("items"); it != node->end())
        for (auto& element : *value) work.emplace_back(&element, &*it);
  }
}

} // namespace toold::core
