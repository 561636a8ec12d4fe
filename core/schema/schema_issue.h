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

} // namespace toold::core
