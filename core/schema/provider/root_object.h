// The root of a tool's input schema as OpenAI and Anthropic want it: one object, without
// combinators. Both refuse a root `anyOf`/`oneOf`/`allOf`, and a single such tool fails the whole
// request, so alternatives are folded into one object (less constrained, never invalid).
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace toold::core::provider_schema {

enum class RootAlternatives {
  /// OpenAI: the variants' properties merged (first wins), their `required` lists dropped, the
  /// object closed.
  MergeOptional,
  /// Anthropic: the variants' properties merged (first wins), required what every variant with
  /// properties requires; `{"required": [...]}` variants become a sentence in the description.
  MergeCommonRequired,
};

/// `schema` with its root made one object; `note` receives what was folded (empty: nothing).
nlohmann::json rootAsObject(const nlohmann::json& schema, RootAlternatives alternatives, std::string& note);

} // namespace toold::core::provider_schema
