// The schema cache: a list in recency order and an index into it, under one mutex.
#include "core/schema/schema_cache.h"

#include "core/schema/schema_limits.h"

#include <utility>

namespace toold::core {

SchemaCache::SchemaCache(std::size_t capacity) : capacity_(capacity) {}

std::shared_ptr<const CompiledSchema> SchemaCache::get(const json& document) {
  checkSchemaSize(document);  // the key's dump() recurses once per level
  std::string key;
  try {
    key = document.dump();
  } catch (const json::exception& error) {  // a string that is not UTF-8
    throw SchemaError(std::string("Invalid schema: ") + error.what());
  }
  {
    const std::lock_guard lock(mutex_);
    if (const auto found = index_.find(key); found != index_.end()) {
      entries_.splice(entries_.begin(), entries_, found->second);
      return found->second->schema;
    }
  }
  std::shared_ptr<const CompiledSchema> compiled = CompiledSchema::compile(document);
  if (capacity_ == 0) return compiled;
  const std::lock_guard lock(mutex_);
  if (const auto found = index_.find(key); found != index_.end()) {  // compiled meanwhile by another thread
    entries_.splice(entries_.begin(), entries_, found->second);
    return found->second->schema;
  }
  entries_.push_front({std::move(key), compiled});
  index_.emplace(entries_.front().key, entries_.begin());
  while (entries_.size() > capacity_) {
    index_.erase(entries_.back().key);
    entries_.pop_back();
  }
  return compiled;
}

std::size_t SchemaCache::size() const {
  const std::lock_guard lock(mutex_);
  return entries_.size();
}

}  // namespace toold::core
