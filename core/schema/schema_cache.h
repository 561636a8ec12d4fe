// Compiled schemas, kept so that each distinct schema is compiled once: tools re-send the same
// schemas again and again. Keyed by the schema's canonical text (json::dump(), whose keys are
// sorted), least recently used first out.
#pragma once

#include "core/schema/json_schema.h"

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace toold::core {

/// Thread-safe. A schema is compiled outside the lock, so a slow compilation holds no one else up;
/// two threads that miss on the same schema at once may both compile it, and the first to finish wins.
class SchemaCache {
public:
  explicit SchemaCache(std::size_t capacity = 256);

  /// The compiled schema for `document`, compiled now if it is not cached. Throws SchemaError
  /// (failures are not cached).
  std::shared_ptr<const CompiledSchema> get(const json& document);

  std::size_t size() const;

private:
  struct Entry {
    std::string key;
    std::shared_ptr<const CompiledSchema> schema;
  };

  const std::size_t capacity_;
  mutable std::mutex mutex_;
  std::list<Entry> entries_;  // most recently used first
  std::unordered_map<std::string_view, std::list<Entry>::iterator> index_;  // views into entries_' keys
};

}  // namespace toold::core
