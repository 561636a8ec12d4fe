// The Location-scoped registry: every registration lives in a scope; per effective name the latest
// active registration wins; closing a scope removes exactly its registrations and reveals the
// next-latest ones. A registration is a copy, kept compactly: its definition as the JSON text
// snapshots write out, its input schema only inside that text, its schemas compiled at their
// first use when they certainly compile (core/schema/lazy_schema.h), else at once, so a broken
// schema is refused at registration instead of failing later calls.
#pragma once

#include "core/schema/lazy_schema.h"
#include "core/tools/tool.h"

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toold::core {

class SchemaCache;

/// What few registrations have, kept behind one pointer: a record of thousands of client tools
/// has none of it, and each of its tools would otherwise hold room for all of it.
struct RegisteredToolExtras {
  std::string authoredName;  ///< the record key, when it differs from the effective name
  std::string ns;            ///< the namespace it was registered under; empty: none
  /// Why a schema of the tool is not checked (empty: both are); shown in its definition.
  std::string schemaNote;
  std::optional<json> outputSchema;
  std::string permission;    ///< Tool::permission
  std::string codemodeDirectReason;
  std::string title;
  json annotations;          ///< null: none
  std::function<std::optional<std::string>(const CatalogView&)> describe;

  bool empty() const;
};

/// One tool as registered: immutable, shared by the registry and every snapshot that advertised it.
/// Kept small (a record can hold thousands): the flags and `execute` of its Tool, its definition as
/// text, and what few tools have behind `extras`. Its description and input schema live in `source`
/// only, the one copy of them; read them with description() and inputSchema().
struct RegisteredTool {
  std::string name;  ///< effective, provider-facing
  ToolExecute execute;
  /// Null when the input schema uses what toold cannot enforce: the input is then taken as it is.
  std::shared_ptr<const LazySchema> input;
  /// Null without an output schema; else null inside when it uses what toold cannot enforce.
  std::shared_ptr<const LazySchema> output;
  /// The definition as registered, as compact JSON text: {description, inputSchema, name,
  /// outputSchema?, schemaNote?} (keys sorted, as nlohmann writes them). Built once.
  std::shared_ptr<const std::string> source;
  /// The definition a snapshot shows, as JSON text: `source`, unless the snapshot changed it
  /// (a description of its own, a schema shaped for a provider).
  std::shared_ptr<const std::string> shown;
  /// The XXH3-128 of `shown` (high, low), set with it: a snapshot's `toolsHash` is made of these,
  /// so a catalog of megabytes is not read again for every snapshot.
  std::array<std::uint64_t, 2> shownHash{};
  /// The scope it was registered in: one string shared by every tool of the record.
  std::shared_ptr<const std::string> scopeName;
  /// Null when it has none of them (see RegisteredToolExtras).
  std::shared_ptr<const RegisteredToolExtras> extras;
  ToolThreading threading = ToolThreading::Workers;  ///< Tool::threading
  bool codemode = true;                              ///< Tool::codemode
  bool codemodeAlsoByDefault = false;                ///< Tool::codemodeAlsoByDefault
  bool mutates = false;                              ///< Tool::mutates
  bool polls = false;                                ///< Tool::polls
  /// True when `shown`'s input schema is an object schema stating "type": "object", and its
  /// output schema, if any, is one too: the text can then be listed as it is where only object
  /// schemas are allowed (MCP's tools/list), without parsing it to look. Set with `shown`.
  bool shownObjectSchemas = false;

  /// The record key it was registered under (its effective name unless they differ).
  const std::string& authoredName() const;
  /// The namespace it was registered under; empty: none.
  const std::string& ns() const;
  /// The scope it was registered in; empty before it is entered.
  const std::string& scope() const;
  const std::string& schemaNote() const;
  const std::optional<json>& outputSchema() const;
  /// Tool::permission: empty when its action is its effective name.
  const std::string& permission() const;
  const std::string& codemodeDirectReason() const;
  const std::string& title() const;
  /// The MCP behaviour hints; null: none given.
  const json& annotations() const;
  /// Tool::describe; empty: the registered description always.
  const std::function<std::optional<std::string>(const CatalogView&)>& describe() const;

  /// The permission action guarding this tool: its own `permission`, else its effective name.
  const std::string& action() const { return permission().empty() ? name : permission(); }
  /// The definition shown, parsed: {name, description, inputSchema, outputSchema?, schemaNote?, strict?}.
  json definition() const;
  /// The definition as registered, parsed from `source`.
  json registered() const;
  /// The description as registered (parsed from `source`).
  std::string description() const;
  /// The input schema as registered (parsed from `source`).
  json inputSchema() const;
  /// The compiled input schema (compiled now at the first call); null when not enforced.
  std::shared_ptr<const CompiledSchema> inputValidator() const;
  /// The compiled output schema; null without one or when not enforced.
  std::shared_ptr<const CompiledSchema> outputValidator() const;
};

/// A copy of `tool` showing `definition` (a snapshot's own description or shaped schema).
std::shared_ptr<const RegisteredTool> withDefinition(const RegisteredTool& tool, const json& definition);

struct RegistrationOptions {
  std::string ns;                 ///< namespace; empty: none
  std::optional<bool> codemode;   ///< overrides each tool's flag when set
};

class ToolRegistry {
public:
  explicit ToolRegistry(SchemaCache& schemas);

  /// Registers every tool of the record in `scope`, or none: an invalid name or a schema that
  /// cannot be compiled throws RegistrationError naming the tool. Returns (authored, effective)
  /// pairs in the record's order.
  std::vector<std::pair<std::string, std::string>> add(const std::string& scope,
                                                       std::vector<std::pair<std::string, Tool>> tools,
                                                       const RegistrationOptions& options);
  /// One tool of a record made into its registration (validated, schemas judged, definition
  /// text built) without entering it: install the record's with installPrepared. Throws
  /// RegistrationError as add() does for that tool.
  std::shared_ptr<RegisteredTool> prepareOne(std::string authored, Tool tool, const RegistrationOptions& options) const;
  /// Enters prepared registrations as one record in `scope`, in the order given (add(), or
  /// replace() when `replacing`, for tools already prepared). Returns (authored, effective) pairs.
  std::vector<std::pair<std::string, std::string>> installPrepared(const std::string& scope,
                                                                   std::vector<std::shared_ptr<RegisteredTool>> prepared,
                                                                   bool replacing = false);
  /// Prepares Code Mode's `execute` like a registration (schemas compiled, definition built)
  /// without entering it: its name is reserved, and snapshots add it themselves when they use
  /// Code Mode. Throws RegistrationError for a schema that cannot be compiled.
  std::shared_ptr<const RegisteredTool> prepareReserved(const std::string& name, Tool tool) const;
  /// add(), but the scope's earlier registrations go in the same step: a snapshot sees either the
  /// old set or the new one, never a gap (an MCP server's re-listed tools). Empty `tools` closes it.
  std::vector<std::pair<std::string, std::string>> replace(const std::string& scope,
                                                           std::vector<std::pair<std::string, Tool>> tools,
                                                           const RegistrationOptions& options);
  /// Removes exactly the registrations of `scope`; false when it has none (closing twice is harmless).
  bool close(const std::string& scope);
  bool hasScope(const std::string& scope) const;

  using EffectiveSet = std::vector<std::shared_ptr<const RegisteredTool>>;
  /// The winner of every name, sorted by effective name in code-unit order.
  EffectiveSet effective() const;
  /// The same, shared: built once per change of the effective set, so that taking a snapshot does
  /// not copy it. Never changes once returned.
  std::shared_ptr<const EffectiveSet> effectiveSet() const;
  /// Increases whenever the effective set changes (a winner appears, goes, or is replaced).
  std::uint64_t revision() const;

  /// Called (outside the registry's lock) after each change of the effective set.
  void setChangeListener(std::function<void()> listener);

private:
  std::vector<std::pair<std::string, std::string>> install(const std::string& scope,
                                                           std::vector<std::pair<std::string, Tool>> tools,
                                                           const RegistrationOptions& options, bool replacing);
  /// Recomputes the winners from every registration; true when they changed. Needs the lock.
  bool recomputeWinners();
  /// Makes the newest of `added` (in registration order) the winners of their names. Needs the lock.
  void addWinners(std::vector<std::shared_ptr<const RegisteredTool>> added);

  SchemaCache& schemas_;
  mutable std::mutex mutex_;
  std::vector<std::shared_ptr<const RegisteredTool>> registrations_; ///< in registration order
  /// The winner of every name (the latest registration of it), sorted by effective name: the
  /// effective set itself, handed out as it is and replaced, never changed, once handed out. A
  /// vector rather than a map: 16 bytes a tool instead of a node of 80 and a copy of 16.
  std::shared_ptr<EffectiveSet> winners_ = std::make_shared<EffectiveSet>();
  std::uint64_t revision_ = 0;
  std::function<void()> listener_;
};

} // namespace toold::core
