// A tool's schema as the registry keeps it: compiled when it is first needed. Compiling thousands
// of registered schemas up front costs time and, for the compiled forms, several KiB each, for
// tools that may never be called; a schema that compilesForCertain() is therefore kept as the text
// it was registered in and compiled at its tool's first call. One that is not certain is compiled
// at registration (so it is refused, or noted as unchecked, there) and kept compiled.
#pragma once

#include "core/schema/json_schema.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace toold::core {

class LazySchema {
public:
  /// Already compiled (null: a schema toold does not enforce, taken unchecked).
  explicit LazySchema(std::shared_ptr<const CompiledSchema> schema);
  /// Member `member` (a string with static storage) of the JSON object `text`, compiled at the
  /// first get(). The text is shared, not copied: it is the tool's registered definition.
  LazySchema(std::shared_ptr<const std::string> text, std::string_view member);

  /// The compiled schema; null when it is not enforced. Thread-safe: the first caller compiles,
  /// the others wait for it. A deferred schema that fails to compile after all (which
  /// compilesForCertain() rules out) is logged and taken unchecked.
  std::shared_ptr<const CompiledSchema> get() const;
  /// True once the schema is compiled (or was given compiled).
  bool compiled() const;

private:
  // The flag and the once side by side: 56 bytes rather than 64, a smaller heap block per tool.
  mutable std::once_flag once_;
  mutable std::atomic<bool> done_{false};
  mutable std::shared_ptr<const CompiledSchema> compiled_;
  std::shared_ptr<const std::string> text_;  // null when given compiled
  std::string_view member_;
};

} // namespace toold::core
