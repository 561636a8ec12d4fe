#include "core/tools/structured_output.h"

#include "core/output/structured_bounding.h"

namespace toold::core {

std::string boundStructuredOutput(nlohmann::json& output, const BoundingLimits& limits, const std::string& savedPath,
                                  bool schemaDeclared, const CompiledSchema* schema, const ValidationBudget& budget) {
  BoundedStructure bounded = boundStructure(output, limits, structureCutMarker(savedPath));
  if (!bounded.cut) return {};
  if (!bounded.fits) return "its strings cannot be cut to fit";
  const bool checkable = !schemaDeclared || schema;
  if (!checkable || (schema && schema->check(bounded.value, budget).status != CompiledSchema::Checked::Status::Valid))
    return "cut, it would not match the output schema";
  output = std::move(bounded.value);
  return {};
}

} // namespace toold::core
