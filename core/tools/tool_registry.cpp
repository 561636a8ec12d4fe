#include "core/tools/tool_registry.h"

#include "core/schema/json_schema.h"
#include "core/schema/schema_cache.h"
#include "core/schema/schema_precheck.h"
#include "core/tools/tool_name.h"
#include "protocol/json_writer.h"

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

// An input or output schema, judged now: compiled at once unless it certainly compiles, in which
// case it waits for its first use (compilation then needs the definition text, see prepare()).
struct Judged {
  std::shared_ptr<const CompiledSchema> compiled;
  bool deferred = false;
};

Judged judge(SchemaCache& schemas, const json& document, const std::string& tool, std::string_view which,
             std::string& note) {
  if (compilesForCertain(document)) return {nullptr, true};
  return {compileFor(schemas, document, tool, which, note), false};
}

bool isObjectTyped(const json& schema) {
  if (!schema.is_object()) return false;
  const auto type = schema.find("type");
  return type != schema.end() && *type == "object";
}

// The definition's JSON text, in the key order nlohmann keeps (sorted) and written as every answer
// is (protocol/json_writer.h), built from its parts without copying the schemas into a document.
std::string definitionText(const RegisteredTool& registered, const std::string& description, const json& input) {
  std::string text = R"({"description":)";
  protocol::appendJsonString(text, description);
  text += R"(,"inputSchema":)";
  protocol::appendJson(text, input);
  text += R"(,"name":)";
  protocol::appendJsonString(text, registered.name);
  if (registered.tool.outputSchema) {
    text += R"(,"outputSchema":)";
    protocol::appendJson(text, *registered.tool.outputSchema);
  }
  if (!registered.schemaNote.empty()) {
    text += R"(,"schemaNote":)";
    protocol::appendJsonString(text, registered.schemaNote);
  }
  text += '}';
  text.shrink_to_fit();
  return text;
}

// Judges the schemas, builds the definition text and takes the description and the input schema
// out of the tool: the text is the one copy kept.
void prepare(SchemaCache& schemas, RegisteredTool& registered, Tool tool, const std::string& shownName) {
  const Judged input = judge(schemas, tool.inputSchema, shownName, "input", registered.schemaNote);
  Judged output;
  if (tool.outputSchema) output = judge(schemas, *tool.outputSchema, shownName, "output", registered.schemaNote);
  json inputSchema = std::move(tool.inputSchema);
  tool.inputSchema = json();
  std::string description = std::move(tool.description);
  tool.description = std::string();
  // No annotations: null rather than an empty object, which would be an allocation per tool.
  if (tool.annotations.is_object() && tool.annotations.empty()) tool.annotations = json();
  registered.tool = std::move(tool);
  auto text = std::make_shared<const std::string>(definitionText(registered, description, inputSchema));
  registered.input = input.deferred ? std::make_shared<const LazySchema>(text, "inputSchema")
                                    : std::make_shared<const LazySchema>(input.compiled);
  if (registered.tool.outputSchema)
    registered.output = output.deferred ? std::make_shared<const LazySchema>(text, "outputSchema")
                                        : std::make_shared<const LazySchema>(output.compiled);
  registered.source = text;
  registered.shown = std::move(text);
  registered.shownObjectSchemas =
      isObjectTyped(inputSchema) && (!registered.tool.outputSchema || isObjectTyped(*registered.tool.outputSchema));
}

} // namespace

// A RegisteredTool made by hand rather than by the registry (no `source`) still has its description
// and schema in `tool`: it reads them from there.
json RegisteredTool::definition() const { return shown ? json::parse(*shown) : registered(); }

json RegisteredTool::registered() const {
  if (source) return json::parse(*source);
  json made{{"name", name}, {"description", tool.description}, {"inputSchema", tool.inputSchema}};
  if (tool.outputSchema) made["outputSchema"] = *tool.outputSchema;
  if (!schemaNote.empty()) made["schemaNote"] = schemaNote;
  return made;
}

json RegisteredTool::inputSchema() const {
  json parsed = registered();
  return std::move(parsed["inputSchema"]);
}

std::string RegisteredTool::description() const {
  json parsed = registered();
  return std::move(parsed["description"].get_ref<std::string&>());
}

std::shared_ptr<const CompiledSchema> RegisteredTool::inputValidator() const { return input ? input->get() : nullptr; }

std::shared_ptr<const CompiledSchema> RegisteredTool::outputValidator() const {
  return output ? output->get() : nullptr;
}

std::shared_ptr<const RegisteredTool> withDefinition(const RegisteredTool& tool, const json& definition) {
  auto copy = std::make_shared<RegisteredTool>(tool);
  copy->shown = std::make_shared<const std::string>(protocol::writeJson(definition));
  const auto input = definition.find("inputSchema");
  const auto output = definition.find("outputSchema");
  copy->shownObjectSchemas = input != definition.end() && isObjectTyped(*input) &&
                             (output == definition.end() || isObjectTyped(*output));
  return copy;
}

// The key views the winner's own name, so it is replaced together with its winner.
void ToolRegistry::setWinner(Winners& winners, const std::shared_ptr<const RegisteredTool>& registered) {
  winners.erase(registered->name);
  winners.emplace(registered->name, registered);
}

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
  prepared.reserve(tools.size());
  for (auto& [authored, tool] : tools) prepared.push_back(prepareOne(std::move(authored), std::move(tool), options));
  return installPrepared(scope, std::move(prepared), replacing);
}

std::shared_ptr<RegisteredTool> ToolRegistry::prepareOne(std::string authored, Tool tool,
                                                         const RegistrationOptions& options) const {
  auto registered = std::make_shared<RegisteredTool>();
  try {
    registered->name = effectiveToolName(authored, options.ns);
  } catch (const RegistrationError& e) {
    throw RegistrationError(std::string(e.what()) + " (tool \"" + authored + "\")");
  }
  if (!tool.execute) throw RegistrationError("Tool \"" + authored + "\" has no execute function");
  registered->ns = options.ns;
  if (options.codemode) tool.codemode = *options.codemode;
  prepare(schemas_, *registered, std::move(tool), authored);
  registered->authoredName = std::move(authored);
  return registered;
}

std::vector<std::pair<std::string, std::string>> ToolRegistry::installPrepared(
    const std::string& scope, std::vector<std::shared_ptr<RegisteredTool>> prepared, bool replacing) {
  std::vector<std::pair<std::string, std::string>> names;
  names.reserve(prepared.size());
  for (auto& registered : prepared) {
    registered->scope = scope;
    names.emplace_back(registered->authoredName, registered->name);
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
    if (replacing) {
      changed = recomputeWinners();
    } else if (!prepared.empty()) {
      // The newest registration of a name always wins it: only the added names change, so a
      // record costs its own size, not the registry's.
      for (auto it = registrations_.end() - static_cast<std::ptrdiff_t>(prepared.size()); it != registrations_.end(); ++it)
        setWinner(winners_, *it);
      ++revision_;
      effectiveSet_.reset();
      changed = true;
    }
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
  prepare(schemas_, *registered, std::move(tool), name);
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

ToolRegistry::EffectiveSet ToolRegistry::effective() const { return *effectiveSet(); }

std::shared_ptr<const ToolRegistry::EffectiveSet> ToolRegistry::effectiveSet() const {
  std::lock_guard lock(mutex_);
  if (!effectiveSet_) {
    auto set = std::make_shared<EffectiveSet>();
    set->reserve(winners_.size());
    for (const auto& [name, registered] : winners_) set->push_back(registered);
    effectiveSet_ = std::move(set);
  }
  return effectiveSet_;
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
  Winners winners;
  for (const auto& registered : registrations_) setWinner(winners, registered);
  const bool changed = winners != winners_;
  if (changed) {
    winners_ = std::move(winners);
    ++revision_;
    effectiveSet_.reset();
  }
  return changed;
}

} // namespace toold::core
