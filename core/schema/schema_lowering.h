// Lowers a schema document to what valijson enforces faithfully, on a copy: draft-07 structure,
// with each schema object's leaf keywords moved into a LeafAssertions that toold checks itself.
// Keywords that cannot be enforced are refused here, with where they are. Internal to the schema
// files (see schema_assertions.h).
#pragma once

#include "core/schema/schema_assertions.h"
#include "core/schema/schema_issue.h"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace toold::core::schema_detail {

/// The root keyword of the lowered document whose array holds the keyed schemas (those of
/// "patternProperties" and the "additionalProperties" beside them), moved there so that each has
/// a JSON pointer valijson can follow ("/$toold-keyed/3"), whatever the keys on its way.
inline constexpr const char* kKeyedKeyword = "$toold-keyed";

/// A subschema holding only this keyword checks how deep the recursion is (see addDepthGuard in
/// schema_lowering.cpp); its value is unused.
inline constexpr const char* kGuardKeyword = "$toold-guard";

struct LoweredSchema {
  json document;  // what valijson parses
  std::vector<std::unique_ptr<LeafAssertions>> assertions;
  std::size_t keyedCount = 0;  // the size of document[kKeyedKeyword]; KeyedSchemas index into it
};

/// Throws SchemaError.
LoweredSchema lowerSchema(const json& document, SchemaDialect dialect);

/// The node a canonical JSON pointer names, or null.
const json* nodeAt(const json& root, const std::string& pointer);

}  // namespace toold::core::schema_detail
