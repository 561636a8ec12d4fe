// The Location-scoped registry: every registration lives in a scope; per effective name the latest
// active registration wins; closing a scope removes exactly its registrations and reveals the
// next-latest ones. A registration is a copy, and its schemas are compiled when it is made, so a
// broken schema is refused at once instead of failing later calls.
#pragma once

#include "core/tools/tool.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace toold::core {

class CompiledSchema;
class SchemaCache;

/// One tool as registered: immutable, shared by the registry and every snapshot that advertised it.
struct RegisteredTool {
  std::string name;          ///< effective, provider-facing
  std::string authoredName;  ///< the record key it was registered under
  std::string ns;            ///< the namespace it was registered under; empty: none
  std::string scope;
  std::uint64_t sequence = 0; ///< registration order; the highest active one wins a name
  Tool tool;
  /// Null when the input schema uses what toold cannot enforce: the input is then taken as it is.
  std::shared_ptr<const CompiledSchema> input;
  /// Null without an output schema, or when it uses what toold cannot enforce (unchecked then).
  std::shared_ptr<const CompiledSchema> output;
  /// Why a schema of the tool is not checked (empty: both are); shown in its definition.
  std::string schemaNote;
  json definition;           ///< {name, description, inputSchema, outputSchema?, schemaNote?}, built once

  /// The permission action guarding this tool: its own `permission`, else its effective name.
  const std::string& action() const { return tool.permission.empty() ? name : tool.permission; }
};

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

  /// The winner of every name, sorted by effective name in code-unit order.
  std::vector<std::shared_ptr<const RegisteredTool>> effective() const;
  /// Increases whenever the effective set changes (a winner appears, goes, or is replaced).
  std::uint64_t revision() const;

  /// Called (outside the registry's lock) after each change of the effective set.
  void setChangeListener(std::function<void()> listener);

private:
  std::vector<std::pair<std::string, std::string>> install(const std::string& scope,
                                                           std::vector<std::pair<std::string, Tool>> tools,
                                                           const RegistrationOptions& options, bool replacing);
  /// Recomputes the winners; true when they changed. Needs the lock.
  bool recomputeWinners();

  SchemaCache& schemas_;
  mutable std::mutex mutex_;
  std::vector<std::shared_ptr<const RegisteredTool>> registrations_; ///< in registration order
  std::map<std::string, std::shared_ptr<const RegisteredTool>> winners_;
  std::uint64_t nextSequence_ = 1;
  std::uint64_t revision_ = 0;
  std::function<void()> listener_;
};

} // namespace toold::core
