// The words of the schema files that every one of them shares: the JSON type, the dialects, what
// a value's issue is and what a schema's own error is. Kept apart from json_schema.h so that the
// files json_schema.cpp is built from (the leaf assertions, the lowering, the limits) can name
// them without depending on the compiled schema they serve.
#pragma once

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>

namespace toold::core {

using json = nlohmann::json;

enum class SchemaDialect { Draft07, Draft2020_12 };

/// One reason a value does not match: where ("a.b[0].c", "root" for the value itself) and what.
struct SchemaIssue {
  std::string path;
  std::string message;

  bool operator==(const SchemaIssue&) const = default;
};

/// A schema that cannot be compiled; the message says what is wrong and where ("#/properties/a").
struct SchemaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A schema that is valid JSON Schema but uses what toold's validator cannot enforce (a keyword
/// of a newer draft, a reference to another document). Unlike a malformed schema or one over
/// toold's limits, it says nothing wrong of the tool: seed 003's validateInput takes the input
/// unchecked when no validator can be produced, and so does the registry (RegisteredTool::schemaNote).
struct SchemaUnsupported : SchemaError {
  using SchemaError::SchemaError;
};

} // namespace toold::core
