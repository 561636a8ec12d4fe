// Shaping a tool's input schema for one model provider, and undoing the shaping on the way back.
// Providers reject or mangle parts of JSON Schema (Gemini takes an OpenAPI subset with string-only
// enums, OpenAI and Anthropic refuse combinators at the root, OpenAI's strict mode wants every
// property required). The registered schema stays the one calls are validated against; the
// shaped one is presentation, and what the shaping changed in the meaning of a value (a number
// enum sent as strings, an optional field sent as a required nullable one) is recorded as an
// *undo* tree that turns the model's answer back into what the tool's own schema describes.
//
// The undo tree mirrors the schema: {"enum": [original members]} on a node whose non-string
// members were stringified, {"nullAbsent": [names]} on an object whose optional properties were
// made nullable, and {"properties": {name: undo}} and {"items": undo} to reach deeper nodes.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace toold::core {

enum class SchemaProvider { Raw, Anthropic, OpenAI, OpenAIStrict, OpenAICompatible, Google, Moonshot, XAI };

inline constexpr std::string_view kSchemaProviderNames =
    "raw, anthropic, openai, openai-strict, openai-compatible, google (or gemini), moonshot, xai";

/// The profile named `name` (as listed in kSchemaProviderNames); nullopt for any other name.
std::optional<SchemaProvider> parseSchemaProvider(std::string_view name);

struct ProjectedSchema {
  /// The schema to send; nullopt when the provider is to be sent no parameters at all (Gemini, for
  /// a tool without inputs).
  std::optional<nlohmann::json> schema;
  /// What a call's input needs undone before validation; null when nothing.
  nlohmann::json undo;
  /// The OpenAI profiles: whether the tool is to be sent with `strict: true`.
  std::optional<bool> strict;
  /// Why the tool is shown less precisely than it was registered (could not be made strict,
  /// alternatives at the root folded): for the log and the runner.
  std::string note;
};

/// `schema` (a registered input schema) as `provider` is to be shown it. Deterministic: the same
/// schema always gives the same bytes, so providers' prompt caches survive re-projection.
ProjectedSchema projectSchema(const nlohmann::json& schema, SchemaProvider provider);

/// Applies `undo` to a call's `input`, in place: stringified enum members back to their numbers
/// and booleans, `null` for an optional property made nullable removed. Values that do not fit
/// the undo are left as they are, for validation to judge.
void undoProjection(nlohmann::json& input, const nlohmann::json& undo);

namespace provider_schema {
// One function per provider family (core/schema/provider/), all pure.
ProjectedSchema projectGoogle(const nlohmann::json& schema);
ProjectedSchema projectOpenAI(const nlohmann::json& schema, bool strict);
ProjectedSchema projectAnthropic(const nlohmann::json& schema);
ProjectedSchema projectMoonshot(const nlohmann::json& schema);
ProjectedSchema projectXAI(const nlohmann::json& schema);
/// `openai` after local `$ref`s are inlined (backends that cannot resolve them).
ProjectedSchema projectOpenAICompatible(const nlohmann::json& schema);
} // namespace provider_schema

} // namespace toold::core
