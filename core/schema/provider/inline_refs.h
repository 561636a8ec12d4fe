// Inlining a schema's local `$ref`s (#/$defs/…, #/definitions/…), for providers that cannot
// resolve them. Recursive references stay as they are, and so do their definitions.
#pragma once

#include <nlohmann/json.hpp>

namespace toold::core::provider_schema {

nlohmann::json inlineLocalRefs(const nlohmann::json& schema);

} // namespace toold::core::provider_schema
