#include "builtins/codemode_catalog.h"

#include "core/tools/tool_name.h"

namespace toold::builtins {

using json = nlohmann::json;

std::vector<codemode::CatalogEntry> catalogEntries(const core::Snapshot& inventory) {
  std::vector<codemode::CatalogEntry> entries;
  entries.reserve(inventory.tools.size());
  for (const auto& tool : inventory.tools) {
    // The registry keeps a tool's description and input schema as its definition's text only.
    json registered = tool->registered();
    entries.push_back(codemode::makeCatalogEntry(codemode::toolPath(tool->ns(), core::normalizeToolName(tool->authoredName())),
                                                 registered["description"].get<std::string>(), registered["inputSchema"],
                                                 tool->outputSchema()));
  }
  codemode::sortCatalog(entries);
  return entries;
}

CodemodeCatalogs::CodemodeCatalogs(std::size_t budget, std::size_t sessions) : budget_(budget), capacity_(sessions) {}

std::optional<json> CodemodeCatalogs::snapshotField(const core::Snapshot& snapshot) {
  std::optional<codemode::CatalogSummary> current;
  if (snapshot.codemode && snapshot.inventory)
    current = codemode::summarizeCatalog(catalogEntries(*snapshot.inventory), budget_);

  std::lock_guard lock(mutex_);
  auto it = shown_.find(snapshot.sessionID);
  const codemode::CatalogSummary* previous = it == shown_.end() ? nullptr : &it->second.first;
  if (!current && previous == nullptr) return std::nullopt;
  json field = json::object();
  if (auto change = codemode::catalogChange(previous, current ? &*current : nullptr)) field["delta"] = *change;
  if (!current) {
    // Code Mode went away for this session: only the notice that its tools are gone.
    order_.erase(it->second.second);
    shown_.erase(it);
    return field;
  }
  field["instructions"] = codemode::renderCatalog(*current);
  if (!snapshot.codemodeAlsoDirect.empty()) {
    std::string names;
    for (std::size_t i = 0; i < snapshot.codemodeAlsoDirect.size(); ++i)
      names += (i == 0 ? "" : i + 1 == snapshot.codemodeAlsoDirect.size() ? " and " : ", ") + std::string("`") +
               snapshot.codemodeAlsoDirect[i] + "`";
    field["instructions"] = field["instructions"].get<std::string>() + "\n\n" + names +
                            (snapshot.codemodeAlsoDirect.size() == 1 ? " is a direct tool" : " are direct tools") +
                            " too: call them directly for a single call, and from `execute` to combine many.";
  }
  // Tools a wildcard left direct: said here, so the model calls them directly, not from a program.
  for (const auto& [name, reason] : snapshot.codemodeKeptDirect)
    field["instructions"] = field["instructions"].get<std::string>() + "\n\n`" + name +
                            "` is a direct tool, not a Code Mode one: call it directly, not from `execute` (" + reason + ").";
  field["summary"] = codemode::summaryToJson(*current);
  if (it != shown_.end()) {
    order_.erase(it->second.second);
    shown_.erase(it);
  }
  order_.push_front(snapshot.sessionID);
  shown_.emplace(snapshot.sessionID, std::make_pair(std::move(*current), order_.begin()));
  while (shown_.size() > capacity_) {
    shown_.erase(order_.back());
    order_.pop_back();
  }
  return field;
}

} // namespace toold::builtins
