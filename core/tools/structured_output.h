// A tool's structured output (MCP's `structuredContent`, which some hosts give the model in place
// of the text) within the same budget as the text: its long strings cut, the value still matching
// the tool's output schema. One that cutting cannot fit, or that the cut would make invalid, stays
// whole: a host checks it against the schema and refuses the call over one that does not match.
#pragma once

#include "core/output/output_bounding.h"
#include "core/schema/json_schema.h"
#include "core/schema/schema_budget.h"

#include <nlohmann/json.hpp>

#include <string>

namespace toold::core {

/// Replaces `output` by its bounded form (boundStructure) when that was cut, fits, and matches
/// `schema`; `schemaDeclared` with no `schema` (a declared schema toold could not compile) keeps
/// it whole. Returns why an over-budget output stays whole, for the log; empty otherwise.
/// `savedPath` is where the call's full text was saved, if it was.
std::string boundStructuredOutput(nlohmann::json& output, const BoundingLimits& limits, const std::string& savedPath,
                                  bool schemaDeclared, const CompiledSchema* schema, const ValidationBudget& budget);

} // namespace toold::core
