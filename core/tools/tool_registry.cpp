#include "core/tools/tool_registry.h"

#include "core/schema/json_schema.h"
#include "core/schema/schema_cache.h"
#include "core/tools/tool_name.h"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace toold::core {

namespace {

// A schema that uses what toold cannot enforce leaves the tool usable, unchecked, with a note
// (seed 003: validateInput accepts the input unchanged when no validator can be produced); a
// malformed schema, or one over toold's limits, refuses the registration.
std::shared_ptr<const CompiledSchema> compileFor(SchemaCache& schemas, const json& document, const std::string& tool,
                                                 std::string_view which, std::string& note) {
  try {
    return schemas.get(document);
  } catch (const SchemaUnsupported& e) {
    note += std::string(note.empty() ? "" : " ") + "The " + std::string(which) + " is not validated by toold: " + e.what() + ".";
    spdlog::warn("tool \"{}\": its {} schema is not validated: {}", tool, which, e.what());
    return nullptr;
  } catch (const SchemaError& e) {
    throw RegistrationError("Invalid " + std::string(which) + " schema for tool \"" + tool + "\": " + e.what());
  }
}

void compileSchemas(SchemaCache& schemas, RegisteredTool& registered, const Tool& tool, const std::string& shownName) {
  registered.input = compileFor(schemas, tool.inputSchema, shownName, "input", registered.schemaNote);
  if (tool.outputSchema)
    registered.output = compileFor(schemas, *tool.outputSchema, shownName, "output", registered.schemaNote);
}

json makeDefinition(const RegisteredTool& registered) {
  json definition{{"name", registered.name},
                  {"description", registered.tool.description},
                  {"inputSchema", registered.tool.inputSchema}};
  if (registered.tool.outputSchema) definition["outputSchema"] = *registered.tool.outputSchema;
  if (!registered.schemaNote.empty()) definition["schemaNote"] = registered.schemaNote;
  return definition;
}

} // namespace

ToolRegistry::ToolRegistry(SchemaCache& schemas) : schemas_(schemas) {}

std::vector<std::pair<std::string, std::string>> ToolRegistry::add(const std::string& scope,
                                                                   std::vector<std::pair<std::string, Tool>> tools,
                                                                   const RegistrationOptions& options) {
  return install(scope, std::move(tools), options, false);
}

std::vector<std::pair<std::string, std::string>> ToolRegistry::replace(const std::string& scope,
                                                                       std::vector<std::pair<std::string, Tool>> tools,
                                                                       const RegistrationOptions& options) {
  return install(scope, std::move(tools), options, true);
}

std::vector<std::pair<std::string, std::string>> ToolRegistry::install(const std::string& scope,
                                                                       std::vector<std::pair<std::string, Tool>> tools,
                                                                       const RegistrationOptions& options,
                                                                       bool replacing) {
  // Validate and compile everything before touching the registry: a record is all or nothing.
  std::vector<std::shared_ptr<RegisteredTool>> prepared;
  std::vector<std::pair<std::string, std::string>> names;
  prepared.reserve(tools.size());
  for (auto& [authored, tool] : tools) {
    auto registered = std::make_shared<RegisteredTool>();
    try {
      registered->name = effectiveToolName(authored, options.ns);
    } catch (const RegistrationError& e) {
      throw RegistrationError(std::string(e.what()) + " (tool \"" + authored + "\")");
    }
    if (!tool.execute) throw RegistrationError("Tool \"" + authored + "\" has no execute function");
    registered->authoredName = authored;
    registered->ns = options.ns;
    registered->scope = scope;
    if (options.codemode) tool.codemode = *options.codemode;
    compileSchemas(schemas_, *registered, tool, authored);
    registered->tool = std::move(tool);
    registered->definition = makeDefinition(*registered);
    names.emplace_back(authored, registered->name);
    prepared.push_back(std::move(registered));
  }

  bool changed = false;
  std::function<void()> listener;
  {
    std::lock_guard lock(mutex_);
    if (replacing)
      registrations_.erase(std::remove_if(registrations_.begin(), registrations_.end(),
                                          [&](const auto& registered) { return registered->scope == scope; }),
                           registrations_.end());
    for (auto& registered : prepared) {
      registered->sequence = nextSequence_++;
      registrations_.push_back(std::move(registered));
    }
    changed = recomputeWinners();
    listener = listener_;
  }
  if (changed && listener) listener();
  return names;
}

std::shared_ptr<const RegisteredTool> ToolRegistry::prepareReserved(const std::string& name, Tool tool) const {
  auto registered = std::make_shared<RegisteredTool>();
  registered->name = name;
  registered->authoredName = name;
  registered->scope = "toold:reserved";
  compileSchemas(schemas_, *registered, tool, name);
  registered->tool = std::move(tool);
  registered->definition = makeDefinition(*registered);
  return registered;
}

bool ToolRegistry::close(const std::string& scope) {
  bool removed = false;
  bool changed = false;
  std::function<void()> listener;
  {
    std::lock_guard lock(mutex_);
    auto end = std::remove_if(registrations_.begin(), registrations_.end(),
                              [&](const auto& registered) { return registered->scope == scope; });
    removed = end != registrations_.end();
    registrations_.erase(end, registrations_.end());
    if (removed) changed = recomputeWinners();
    listener = listener_;
  }
  if (changed && listener) listener();
  return removed;
}

bool ToolRegistry::hasScope(const std::string& scope) const {
  std::lock_guard lock(mutex_);
  return std::any_of(registrations_.begin(), registrations_.end(),
                     [&](const auto& registered) { return registered->scope == scope; });
}

std::vector<std::shared_ptr<const RegisteredTool>> ToolRegistry::effective() const {
  std::lock_guard lock(mutex_);
  std::vector<std::shared_ptr<const RegisteredTool>> result;
  result.reserve(winners_.size());
  for (const auto& [name, registered] : winners_) result.push_back(registered);
  return result;
}

std::uint64_t ToolRegistry::revision() const {
  std::lock_guard lock(mutex_);
  return revision_;
}

void ToolRegistry::setChangeListener(std::function<void()> listener) {
  std::lock_guard lock(mutex_);
  listener_ = std::move(listener);
}

bool ToolRegistry::recomputeWinners() {
  // Registrations are kept in sequence order, so the last one seen for a name is the latest.
  std::map<std::string, std::shared_ptr<const RegisteredTool>> winners;
  for (const auto& registered : registrations_) winners[registered->name] = registered;
  const bool changed = winners != winners_;
  if (changed) {
    winners_ = std::move(winners);
    ++revision_;
  }
  return changed;
}

} // namespace toold::core
