// The Location-scoped registry: every registration lives in a scope; per effective name the latest
// active registration wins; closing a scope removes exactly its registrations and reveals the
// next-latest ones. A registration is a copy, kept compactly: its definition as the JSON text
// snapshots write out, its input schema only inside that text, its schemas compiled at their
// first use when they certainly compile (core/schema/lazy_schema.h), else at once, so a broken
// schema is refused at registration instead of failing later calls.
#pragma once

#include "core/schema/lazy_schema.h"
#include "core/tools/tool.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace toold::core {

class SchemaCache;

/// One tool as registered: immutable, shared by the registry and every snapshot that advertised it.
struct RegisteredTool {
  std::string name;          ///< effective, provider-facing
  std::string authoredName;  ///< the record key it was registered under
  std::string ns;            ///< the namespace it was registered under; empty: none
  std::string scope;
  std::uint64_t sequence = 0; ///< registration order; the highest active one wins a name
  /// What it does and its flags. Its description and input schema are not kept here
  /// (`tool.description` is empty, `tool.inputSchema` null): they live in `source` only, the one
  /// copy of them; read them with description() and inputSchema().
  Tool tool;
  /// Null when the input schema uses what toold cannot enforce: the input is then taken as it is.
  std::shared_ptr<const LazySchema> input;
  /// Null without an output schema; else null inside when it uses what toold cannot enforce.
  std::shared_ptr<const LazySchema> output;
  /// Why a schema of the tool is not checked (empty: both are); shown in its definition.
  std::string schemaNote;
  /// The definition as registered, as compact JSON text: {description, inputSchema, name,
  /// outputSchema?, schemaNote?} (keys sorted, as nlohmann writes them). Built once.
  std::shared_ptr<const std::string> source;
  /// The definition a snapshot shows, as JSON text: `source`, unless the snapshot changed it
  /// (a description of its own, a schema shaped for a provider).
  std::shared_ptr<const std::string> shown;
  /// True when `shown`'s input schema is an object schema stating "type": "object", and its
  /// output schema, if any, is one too: the text can then be listed as it is where only object
  /// schemas are allowed (MCP's tools/list), without parsing it to look. Set with `shown`.
  bool shownObjectSchemas = false;

  /// The permission action guarding this tool: its own `permission`, else its effective name.
  const std::string& action() const { return tool.permission.empty() ? name : tool.permission; }
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

  SchemaCache& schemas_;
  mutable std::mutex mutex_;
  std::vector<std::shared_ptr<const RegisteredTool>> registrations_; ///< in registration order
  /// Per effective name (a view of the winner's own name: no copy of it), the winner.
  using Winners = std::map<std::string_view, std::shared_ptr<const RegisteredTool>>;
  static void setWinner(Winners& winners, const std::shared_ptr<const RegisteredTool>& registered);
  Winners winners_;
  mutable std::shared_ptr<const EffectiveSet> effectiveSet_;  ///< of winners_; null: to be built
  std::uint64_t nextSequence_ = 1;
  std::uint64_t revision_ = 0;
  std::function<void()> listener_;
};

} // namespace toold::core
