// One Code Mode tool as the catalog and `search` see it: its path, its description, its rendered
// signature, and the lowercase text search matches against.
#pragma once

#include "builtins/codemode/tool_path.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace toold::codemode {

struct CatalogEntry {
  ToolPath path;
  std::string key;         ///< the dotted path, unique in a catalog
  std::string expression;  ///< the path expression, as a program writes it
  std::string description;
  std::string signature;
  /// Lowercase: the dotted path, the description, and the input's property names and descriptions.
  std::string searchText;
  bool pinned = false;     ///< always listed, whatever the budget
};

CatalogEntry makeCatalogEntry(ToolPath path, std::string description, const nlohmann::json& inputSchema,
                              const std::optional<nlohmann::json>& outputSchema);

/// Sorted by key (code-unit order), the order every catalog view uses.
void sortCatalog(std::vector<CatalogEntry>& entries);

} // namespace toold::codemode

namespace toold::codemode {

/// The worker process gets the catalog with each program (for `search`), as JSON.
nlohmann::json catalogEntryToJson(const CatalogEntry& entry);
CatalogEntry catalogEntryFromJson(const nlohmann::json& value);

} // namespace toold::codemode
