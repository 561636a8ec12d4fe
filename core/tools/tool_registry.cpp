#include "core/tools/tool_registry.h"

#include "core/schema/json_schema.h"
#include "core/schema/schema_cache.h"
#include "core/schema/schema_precheck.h"
#include "core/tools/tool_name.h"
#include "protocol/json_writer.h"

#include <spdlog/spdlog.h>
// Compiled into this file: every start hashes each built-in definition here, and libxxhash's
// archive keeps all its code in one section, which the start-up order (cmake/startup_order.cmake)
// cannot place beside the rest of a start's code: a code fault and 64 KiB mapped of its own.
#define XXH_INLINE_ALL
#include <xxhash.h>

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
// A constant input schema's text (`inputText`) is taken as it is.
std::string definitionText(const std::string& name, const std::string& description, const json& input,
                           std::string_view inputText, const std::optional<json>& output,
                           const std::string& schemaNote) {
  std::string text = R"({"description":)";
  protocol::appendJsonString(text, description);
  text += R"(,"inputSchema":)";
  if (!inputText.empty()) text += inputText;
  else protocol::appendJson(text, input);
  text += R"(,"name":)";
  protocol::appendJsonString(text, name);
  if (output) {
    text += R"(,"outputSchema":)";
    protocol::appendJson(text, *output);
  }
  if (!schemaNote.empty()) {
    text += R"(,"schemaNote":)";
    protocol::appendJsonString(text, schemaNote);
  }
  text += '}';
  text.shrink_to_fit();
  return text;
}

std::array<std::uint64_t, 2> textHash(std::string_view text) {
  const XXH128_hash_t hash = XXH3_128bits(text.data(), text.size());
  return {hash.high64, hash.low64};
}

// Judges the schemas, builds the definition text (the one copy of the description and the input
// schema kept) and keeps of the tool its flags and `execute`, and what few tools have in `extras`.
void prepare(SchemaCache& schemas, RegisteredTool& registered, Tool tool, std::string authored, std::string ns) {
  std::string schemaNote;
  // A constant schema certainly compiles (Tool::inputSchemaText): its compilation waits for its
  // first use, like any other such schema's.
  const bool constantInput = !tool.inputSchemaText.empty();
  const Judged input = constantInput ? Judged{nullptr, true} : judge(schemas, tool.inputSchema, authored, "input", schemaNote);
  Judged output;
  if (tool.outputSchema) output = judge(schemas, *tool.outputSchema, authored, "output", schemaNote);
  auto text = std::make_shared<const std::string>(definitionText(registered.name, tool.description, tool.inputSchema,
                                                                 tool.inputSchemaText, tool.outputSchema, schemaNote));
  registered.input = input.deferred ? std::make_shared<const LazySchema>(text, "inputSchema")
                                    : std::make_shared<const LazySchema>(input.compiled);
  if (tool.outputSchema)
    registered.output = output.deferred ? std::make_shared<const LazySchema>(text, "outputSchema")
                                        : std::make_shared<const LazySchema>(output.compiled);
  registered.source = text;
  registered.shownHash = textHash(*text);
  registered.shown = std::move(text);
  registered.shownObjectSchemas =
      (constantInput || isObjectTyped(tool.inputSchema)) && (!tool.outputSchema || isObjectTyped(*tool.outputSchema));
  registered.execute = std::move(tool.execute);
  registered.threading = tool.threading;
  registered.codemode = tool.codemode;
  registered.codemodeAlsoByDefault = tool.codemodeAlsoByDefault;
  registered.mutates = tool.mutates;
  registered.polls = tool.polls;

  RegisteredToolExtras extras;
  // The authored name is kept only when it differs: most are their own effective name.
  if (authored != registered.name) extras.authoredName = std::move(authored);
  extras.ns = std::move(ns);
  extras.schemaNote = std::move(schemaNote);
  extras.outputSchema = std::move(tool.outputSchema);
  extras.permission = std::move(tool.permission);
  extras.codemodeDirectReason = std::move(tool.codemodeDirectReason);
  extras.title = std::move(tool.title);
  // No annotations: null rather than an empty object.
  if (!(tool.annotations.is_object() && tool.annotations.empty())) extras.annotations = std::move(tool.annotations);
  extras.describe = std::move(tool.describe);
  if (!extras.empty()) registered.extras = std::make_shared<const RegisteredToolExtras>(std::move(extras));
}

const std::string kNoText;
const json kNoJson;
const std::optional<json> kNoSchema;
const std::function<std::optional<std::string>(const CatalogView&)> kNoDescribe;

} // namespace

bool RegisteredToolExtras::empty() const {
  return authoredName.empty() && ns.empty() && schemaNote.empty() && !outputSchema && permission.empty() &&
         codemodeDirectReason.empty() && title.empty() && annotations.is_null() && !describe;
}

const std::string& RegisteredTool::authoredName() const {
  return extras && !extras->authoredName.empty() ? extras->authoredName : name;
}
const std::string& RegisteredTool::ns() const { return extras ? extras->ns : kNoText; }
const std::string& RegisteredTool::scope() const { return scopeName ? *scopeName : kNoText; }
const std::string& RegisteredTool::schemaNote() const { return extras ? extras->schemaNote : kNoText; }
const std::optional<json>& RegisteredTool::outputSchema() const { return extras ? extras->outputSchema : kNoSchema; }
const std::string& RegisteredTool::permission() const { return extras ? extras->permission : kNoText; }
const std::string& RegisteredTool::codemodeDirectReason() const {
  return extras ? extras->codemodeDirectReason : kNoText;
}
const std::string& RegisteredTool::title() const { return extras ? extras->title : kNoText; }
const json& RegisteredTool::annotations() const { return extras ? extras->annotations : kNoJson; }
const std::function<std::optional<std::string>(const CatalogView&)>& RegisteredTool::describe() const {
  return extras ? extras->describe : kNoDescribe;
}

// A RegisteredTool made by hand rather than by the registry (no `source`) has a name only.
json RegisteredTool::definition() const { return shown ? json::parse(*shown) : registered(); }

json RegisteredTool::registered() const {
  if (source) return json::parse(*source);
  return json{{"name", name}, {"description", ""}, {"inputSchema", json::object()}};
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
  copy->shownHash = textHash(*copy->shown);
  const auto input = definition.find("inputSchema");
  const auto output = definition.find("outputSchema");
  copy->shownObjectSchemas = input != definition.end() && isObjectTyped(*input) &&
                             (output == definition.end() || isObjectTyped(*output));
  return copy;
}

namespace {

bool byName(const std::shared_ptr<const RegisteredTool>& a, const std::shared_ptr<const RegisteredTool>& b) {
  return a->name < b->name;
}

// `tools` (in registration order) sorted by name, only the latest of each name kept.
std::vector<std::shared_ptr<const RegisteredTool>> latestByName(std::vector<std::shared_ptr<const RegisteredTool>> tools) {
  std::stable_sort(tools.begin(), tools.end(), byName);
  std::vector<std::shared_ptr<const RegisteredTool>> latest;
  latest.reserve(tools.size());
  for (std::size_t i = 0; i < tools.size(); ++i)
    if (i + 1 == tools.size() || tools[i + 1]->name != tools[i]->name) latest.push_back(std::move(tools[i]));
  return latest;
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
  if (options.codemode) tool.codemode = *options.codemode;
  prepare(schemas_, *registered, std::move(tool), std::move(authored), options.ns);
  return registered;
}

std::vector<std::pair<std::string, std::string>> ToolRegistry::installPrepared(
    const std::string& scope, std::vector<std::shared_ptr<RegisteredTool>> prepared, bool replacing) {
  std::vector<std::pair<std::string, std::string>> names;
  names.reserve(prepared.size());
  const auto scopeName = std::make_shared<const std::string>(scope);
  for (auto& registered : prepared) {
    registered->scopeName = scopeName;
    names.emplace_back(registered->authoredName(), registered->name);
    // Said when the tool is registered, not when it is prepared: a record refused after its
    // first tools were prepared is read again the long way, which said it a second time.
    if (!registered->schemaNote().empty()) spdlog::warn("tool \"{}\": {}", registered->name, registered->schemaNote());
  }

  bool changed = false;
  std::function<void()> listener;
  {
    std::lock_guard lock(mutex_);
    if (replacing)
      registrations_.erase(std::remove_if(registrations_.begin(), registrations_.end(),
                                          [&](const auto& registered) { return registered->scope() == scope; }),
                           registrations_.end());
    // Room for a large record exactly, rather than up to twice its size; small ones grow as usual.
    if (registrations_.size() + prepared.size() > registrations_.capacity())
      registrations_.reserve(std::max(registrations_.size() + prepared.size(),
                                      registrations_.capacity() + registrations_.capacity() / 2));
    for (const auto& registered : prepared) registrations_.push_back(registered);
    if (replacing) {
      changed = recomputeWinners();
    } else if (!prepared.empty()) {
      // The newest registration of a name always wins it: only the added names change.
      addWinners({std::make_move_iterator(prepared.begin()), std::make_move_iterator(prepared.end())});
      ++revision_;
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
  registered->scopeName = std::make_shared<const std::string>("toold:reserved");
  prepare(schemas_, *registered, std::move(tool), name, "");
  return registered;
}

bool ToolRegistry::close(const std::string& scope) {
  bool removed = false;
  bool changed = false;
  std::function<void()> listener;
  {
    std::lock_guard lock(mutex_);
    auto end = std::remove_if(registrations_.begin(), registrations_.end(),
                              [&](const auto& registered) { return registered->scope() == scope; });
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
                     [&](const auto& registered) { return registered->scope() == scope; });
}

ToolRegistry::EffectiveSet ToolRegistry::effective() const { return *effectiveSet(); }

std::shared_ptr<const ToolRegistry::EffectiveSet> ToolRegistry::effectiveSet() const {
  std::lock_guard lock(mutex_);
  return winners_;
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
  // Registrations are kept in registration order, so the last one seen for a name is the latest.
  auto winners = std::make_shared<EffectiveSet>(latestByName(registrations_));
  winners->shrink_to_fit();
  const bool changed = *winners != *winners_;
  if (changed) {
    winners_ = std::move(winners);
    ++revision_;
  }
  return changed;
}

void ToolRegistry::addWinners(std::vector<std::shared_ptr<const RegisteredTool>> added) {
  added = latestByName(std::move(added));
  // A record costs a pass over the winners, not a search per tool; the old set may be held by
  // snapshots, so the merged one is new. Its elements are moved out only when nothing else holds
  // it (no snapshot was taken since: a burst of registrations), which the lock makes certain.
  const bool owned = winners_.use_count() == 1;
  EffectiveSet& old = *winners_;
  auto merged = std::make_shared<EffectiveSet>();
  merged->reserve(old.size() + added.size());
  auto kept = old.begin();
  for (auto& tool : added) {
    for (; kept != old.end() && (*kept)->name < tool->name; ++kept)
      merged->push_back(owned ? std::move(*kept) : *kept);
    if (kept != old.end() && (*kept)->name == tool->name) ++kept;  // replaced
    merged->push_back(std::move(tool));
  }
  for (; kept != old.end(); ++kept) merged->push_back(owned ? std::move(*kept) : *kept);
  winners_ = std::move(merged);
}

} // namespace toold::core
