// What every program of one snapshot needs of its Code Mode inventory, made once per inventory
// instead of once per `execute`: the catalog entries, each tool by its dotted path, and the JSON
// a worker is sent. A worker keeps the last catalog it was sent; the key says which one it is, so
// the next program of the same snapshot goes without it (rendering and sending it, and parsing it
// in the worker, was about a sixth of a trivial program's time).
#pragma once

#include "builtins/codemode/catalog_entry.h"
#include "core/tools/snapshot.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace toold::builtins {

struct ProgramCatalog {
  std::vector<codemode::CatalogEntry> entries;
  /// The inventory's tools by dotted path; valid while the inventory lives (a run holds it).
  std::map<std::string, const core::RegisteredTool*, std::less<>> byPath;
  /// Unique for the daemon's life: equal keys mean the same paths and catalog.
  std::string key;
  nlohmann::json paths = nlohmann::json::array();   ///< the run message's "tools"
  nlohmann::json catalog = nlohmann::json::array(); ///< the run message's "catalog"
};

/// The catalogs of the few most recently used inventories.
class ProgramCatalogs {
public:
  explicit ProgramCatalogs(std::size_t capacity = 8) : capacity_(capacity) {}

  std::shared_ptr<const ProgramCatalog> forInventory(const std::shared_ptr<const core::Snapshot>& inventory);

private:
  std::size_t capacity_;
  std::mutex mutex_;
  std::size_t made_ = 0;
  /// Most recently used first. A weak pointer: an inventory released and another made at its
  /// address is no match.
  std::vector<std::pair<std::weak_ptr<const core::Snapshot>, std::shared_ptr<const ProgramCatalog>>> recent_;
};

} // namespace toold::builtins
