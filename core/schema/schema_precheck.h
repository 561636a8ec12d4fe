// A quick "this schema compiles, and toold enforces all of it" for the shape nearly every tool's
// input has, so that registering thousands of tools does not compile thousands of schemas that
// may never be used: those are compiled at their first call instead. It only ever says "certain":
// a schema it does not fully recognise is compiled at registration as before, so a broken or
// partly enforceable schema is still refused, or noted, when it is registered.
#pragma once

#include <nlohmann/json.hpp>

namespace toold::core {

/// True only when CompiledSchema::compile(document) certainly succeeds: `document` is an object
/// whose keywords, at every level, are among the plain ones (type, enum, const, numeric and
/// length bounds, required, properties, additionalProperties, items, format, annotations), each
/// with a well-formed value. A "$ref", a pattern, a combinator, "$schema" or any other keyword
/// makes it false; so does a schema past the limits of schema_limits.h.
bool compilesForCertain(const nlohmann::json& document);

} // namespace toold::core
