#include "builtins/program_catalog.h"

#include "builtins/codemode_catalog.h"
#include "core/tools/tool_name.h"

#include <algorithm>
#include <set>
#include <string_view>

namespace toold::builtins {

namespace {

std::shared_ptr<const ProgramCatalog> makeProgramCatalog(const core::Snapshot& inventory, std::string key) {
  auto made = std::make_shared<ProgramCatalog>();
  made->key = std::move(key);
  made->entries = catalogEntries(inventory);
  std::set<std::string_view> keys;
  for (const auto& entry : made->entries) {
    made->paths.push_back(entry.path);
    made->catalog.push_back(codemode::catalogEntryToJson(entry));
    keys.insert(entry.key);
  }
  // Each tool's path computed once, not once per catalog entry (a hundred MCP tools made ten
  // thousand of them per program).
  for (const auto& tool : inventory.tools) {
    std::string path = codemode::dottedPath(codemode::toolPath(tool->ns(), core::normalizeToolName(tool->authoredName())));
    if (keys.contains(path)) made->byPath.emplace(std::move(path), tool.get());
  }
  return made;
}

} // namespace

std::shared_ptr<const ProgramCatalog> ProgramCatalogs::forInventory(const std::shared_ptr<const core::Snapshot>& inventory) {
  std::size_t number = 0;
  {
    std::lock_guard lock(mutex_);
    for (auto it = recent_.begin(); it != recent_.end(); ++it) {
      if (it->first.lock() != inventory) continue;
      auto found = it->second;
      std::rotate(recent_.begin(), it, it + 1);
      return found;
    }
    number = ++made_;
  }
  // Made outside the lock: other sessions' programs need not wait for it. Two programs of a new
  // snapshot at once may both make it; the second one kept wins, and both are right.
  auto made = makeProgramCatalog(*inventory, "catalog-" + std::to_string(number));
  std::lock_guard lock(mutex_);
  std::erase_if(recent_, [&](const auto& entry) { return entry.first.expired() || entry.first.lock() == inventory; });
  recent_.insert(recent_.begin(), {inventory, made});
  if (recent_.size() > capacity_) recent_.resize(capacity_);
  return made;
}

} // namespace toold::builtins
