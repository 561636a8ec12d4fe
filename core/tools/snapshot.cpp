#include "core/tools/snapshot.h"

#include "core/tools/catalog_filter.h"
#include "core/permission/permission_evaluation.h"
#include "core/permission/wildcard.h"
#include "core/schema/provider_schema.h"
#include "core/tools/tool_name.h"
#include "protocol/json_writer.h"

#include <spdlog/spdlog.h>

#include <xxhash.h>

#include <algorithm>
#include <cstdio>

namespace toold::core {

namespace {

bool equalsIgnoringAsciiCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
           return lower(x) == lower(y);
         });
}

// The tool as `provider` is shown it: its definition's input schema shaped, what must be undone on
// the way back recorded in the snapshot, and the strict flag of the OpenAI profiles.
std::shared_ptr<const RegisteredTool> shapeForProvider(std::shared_ptr<const RegisteredTool> tool,
                                                       SchemaProvider provider, Snapshot& snapshot) {
  json definition = tool->definition();
  auto projected = projectSchema(definition.value("inputSchema", json::object()), provider);
  if (projected.schema) definition["inputSchema"] = std::move(*projected.schema);
  else definition.erase("inputSchema");
  if (projected.strict) definition["strict"] = *projected.strict;
  if (!projected.note.empty()) {
    definition["schemaNote"] = projected.note;
    spdlog::info("snapshot {}: tool {} for {}: {}", snapshot.id, tool->name, snapshot.provider, projected.note);
  }
  auto copy = withDefinition(*tool, definition);
  if (!projected.undo.is_null()) snapshot.inputUndo.emplace(tool->name, std::move(projected.undo));
  return copy;
}

} // namespace

const RegisteredTool* Snapshot::find(std::string_view name) const {
  auto it = std::lower_bound(tools.begin(), tools.end(), name,
                             [](const auto& tool, std::string_view n) { return tool->name < n; });
  if (it != tools.end() && (*it)->name == name) return it->get();
  const RegisteredTool* match = nullptr;
  for (const auto& tool : tools) {
    if (!equalsIgnoringAsciiCase(tool->name, name)) continue;
    if (match != nullptr) return nullptr; // ambiguous: refuse to guess
    match = tool.get();
  }
  return match;
}

json Snapshot::definitions() const {
  json list = json::array();
  for (const auto& tool : tools) list.push_back(tool->definition());
  return list;
}

void Snapshot::appendDefinitions(std::string& out, std::size_t room) const {
  std::size_t size = 2 + room;
  for (const auto& tool : tools) size += (tool->shown ? tool->shown->size() : 0) + 1;
  out.reserve(out.size() + size);
  out += '[';
  for (std::size_t i = 0; i < tools.size(); ++i) {
    if (i > 0) out += ',';
    if (tools[i]->shown) out += *tools[i]->shown;
    else protocol::appendJson(out, tools[i]->definition());  // made by hand, not by the registry
  }
  out += ']';
}

bool Snapshot::definitionPieces(std::vector<std::string_view>& out) const {
  if (!std::all_of(tools.begin(), tools.end(), [](const auto& tool) { return tool->shown != nullptr; })) return false;
  out.reserve(out.size() + 2 * tools.size() + 1);
  for (std::size_t i = 0; i < tools.size(); ++i) {
    out.emplace_back(i == 0 ? "[" : ",");
    out.emplace_back(*tools[i]->shown);
  }
  out.emplace_back(tools.empty() ? "[]" : "]");
  return true;
}

std::string Snapshot::toolsHash() const {
  // The hash of each definition's text, kept with it since it was made, then of those in order:
  // a snapshot reads 16 bytes a tool, not the catalog's megabytes again.
  std::vector<std::uint64_t> each;
  each.reserve(2 * tools.size());
  for (const auto& tool : tools) {
    if (tool->shown) {
      each.insert(each.end(), tool->shownHash.begin(), tool->shownHash.end());
    } else {  // made by hand, not by the registry
      std::string text;
      protocol::appendJson(text, tool->definition());
      const XXH128_hash_t hash = XXH3_128bits(text.data(), text.size());
      each.insert(each.end(), {hash.high64, hash.low64});
    }
  }
  const XXH128_hash_t hash = XXH3_128bits(each.data(), each.size() * sizeof(std::uint64_t));
  char digits[33];
  std::snprintf(digits, sizeof digits, "%016llx%016llx", static_cast<unsigned long long>(hash.high64),
                static_cast<unsigned long long>(hash.low64));
  return std::string(digits, 32);
}

std::vector<std::string> Snapshot::names() const {
  std::vector<std::string> result;
  result.reserve(tools.size());
  for (const auto& tool : tools) result.push_back(tool->name);
  return result;
}

bool runsInCodemode(const RegisteredTool& tool, const CodemodeSettings* settings) {
  bool inside = tool.codemode;
  if (settings != nullptr)
    for (const auto& [pattern, flag] : settings->tools) {
      if (!wildcardMatch(pattern, tool.name)) continue;
      if (flag && pattern != tool.name && !tool.codemodeDirectReason().empty()) continue;
      inside = flag;
    }
  return inside;
}

bool keptDirectByWildcard(const RegisteredTool& tool, const CodemodeSettings* settings) {
  if (settings == nullptr || tool.codemodeDirectReason().empty() || runsInCodemode(tool, settings)) return false;
  return std::any_of(settings->tools.begin(), settings->tools.end(), [&](const auto& entry) {
    return entry.second && entry.first != tool.name && wildcardMatch(entry.first, tool.name);
  });
}

std::shared_ptr<const Snapshot> takeSnapshot(std::string id,
                                             const std::vector<std::shared_ptr<const RegisteredTool>>& effective,
                                             const protocol::SnapshotParams& params,
                                             std::vector<const Ruleset*> configured,
                                             const SnapshotEnvironment& environment,
                                             const SnapshotCodemode& codemode) {
  std::optional<SchemaProvider> provider;
  if (params.provider) {
    provider = parseSchemaProvider(*params.provider);
    if (!provider)
      throw std::invalid_argument("provider: unknown provider \"" + *params.provider +
                                  "\"; known: " + std::string(kSchemaProviderNames));
  }
  auto snapshot = std::make_shared<Snapshot>();
  snapshot->id = std::move(id);
  snapshot->sessionID = params.sessionID;
  snapshot->agent = params.agent;
  snapshot->model = params.model;
  snapshot->final = params.final;
  auto rules = std::make_shared<Ruleset>();
  for (const auto& rule : params.rules)
    rules->push_back({rule.action, rule.resource, *parsePermissionEffect(rule.effect), "snapshot rules"});
  snapshot->rules = rules;
  auto catalog = std::make_shared<CatalogView>();
  catalog->agent = params.agent;
  catalog->configured = configured;
  catalog->snapshotRules = rules;
  catalog->agents = params.agents;
  catalog->capabilities = environment.capabilities.is_object() ? environment.capabilities : json::object();
  catalog->location = environment.location;
  snapshot->catalog = catalog;
  snapshot->provider = params.provider.value_or("");
  configured.push_back(rules.get());
  snapshot->tools.reserve(effective.size());
  for (const auto& tool : effective) {
    if (whollyDenied(tool->action(), configured)) continue;
    if (hiddenForModel(tool->name, params.model)) continue;
    std::shared_ptr<const RegisteredTool> shown = tool;
    if (tool->describe()) {
      auto description = tool->describe()(*catalog);
      if (!description) continue;
      if (*description != tool->description()) {
        json definition = tool->definition();
        definition["description"] = *description;
        shown = withDefinition(*tool, definition);
      }
    }
    if (provider) shown = shapeForProvider(std::move(shown), *provider, *snapshot);
    snapshot->tools.push_back(std::move(shown));
  }
  // The registry hands them over sorted by name already; sorting again keeps this true whatever
  // the caller passed.
  auto byName = [](const auto& a, const auto& b) { return a->name < b->name; };
  if (!std::is_sorted(snapshot->tools.begin(), snapshot->tools.end(), byName))
    std::sort(snapshot->tools.begin(), snapshot->tools.end(), byName);

  const bool wanted = params.codemode.value_or(codemode.settings != nullptr && codemode.settings->enabled);
  if (wanted && codemode.execute && !whollyDenied(kReservedToolName, configured)) {
    auto inventory = std::make_shared<Snapshot>();
    inventory->id = snapshot->id;
    inventory->sessionID = snapshot->sessionID;
    inventory->agent = snapshot->agent;
    inventory->model = snapshot->model;
    inventory->final = snapshot->final;
    inventory->rules = snapshot->rules;
    // Inner calls see the client as the outer call does: `question` and `task` inside a program
    // work exactly when they work directly.
    inventory->catalog = snapshot->catalog;
    std::vector<std::shared_ptr<const RegisteredTool>> direct;
    for (auto& tool : snapshot->tools) {
      if (keptDirectByWildcard(*tool, codemode.settings))
        snapshot->codemodeKeptDirect.emplace_back(tool->name, tool->codemodeDirectReason());
      if (runsInCodemode(*tool, codemode.settings)) {
        inventory->tools.push_back(std::move(tool));
        continue;
      }
      if (tool->codemodeAlsoByDefault && (codemode.settings == nullptr || codemode.settings->tools.empty())) {
        snapshot->codemodeAlsoDirect.push_back(tool->name);
        inventory->tools.push_back(tool);
      }
      direct.push_back(std::move(tool));
    }
    // With no Code Mode tool visible, `execute` would be a tool that can do nothing: left out.
    if (!inventory->tools.empty()) {
      direct.push_back(codemode.execute);
      std::sort(direct.begin(), direct.end(), byName);
    }
    snapshot->tools = std::move(direct);
    snapshot->codemode = true;
    snapshot->inventory = std::move(inventory);
  }
  return snapshot;
}

} // namespace toold::core
