// Anthropic accepts JSON Schema 2020-12 (`$ref`, bounds, nested combinators) with one hard rule:
// the root is an object without `oneOf`, `allOf` or `anyOf` (provider-schemas reference §4).
#include "core/schema/provider/root_object.h"
#include "core/schema/provider_schema.h"

namespace toold::core::provider_schema {

ProjectedSchema projectAnthropic(const nlohmann::json& schema) {
  ProjectedSchema result;
  result.schema = rootAsObject(schema, RootAlternatives::MergeCommonRequired, result.note);
  return result;
}

} // namespace toold::core::provider_schema
