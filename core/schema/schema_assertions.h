// The leaf keywords of one schema object (type, enum, const, bounds, lengths, pattern, format,
// required, ...), parsed when a schema is compiled and checked by toold rather than by valijson,
// which keeps the structure (properties, items, $ref, allOf, ...). Also "patternProperties" and
// the "additionalProperties" beside them: toold matches the keys and has valijson validate each
// value against the schemas that apply. Internal to the schema files (json_schema.cpp and
// schema_lowering.cpp); valijson is a private dependency of core, so its types are only named here.
//
// Why not valijson's own checks: its messages are written for schema authors, not for a model
// ("Value type not permitted by 'type' constraint."); its "pattern" and "patternProperties" use a
// backtracking std::regex whose recursion overflows the stack on a string of some 30,000
// characters, with no limit on its time (toold uses PCRE2, see regex.h); its "format" and
// "multipleOf" also judge numbers and numeric strings; and it does not count 1.0 as an integer.
#pragma once

#include "core/schema/schema_issue.h"
#include "core/schema/regex.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace valijson {
class ConstraintBuilder;
class ValidationResults;
namespace adapters {
class Adapter;
}  // namespace adapters
}  // namespace valijson

namespace toold::core::schema_detail {

/// The keyword that carries a schema object's leaf assertions, as an index into the table, in
/// the lowered document valijson parses.
inline constexpr const char* kLeafKeyword = "$toold-leaf";

/// "patternProperties" and the "additionalProperties" beside them; which applies to a key
/// depends on which patterns match it. The schemas are numbered (see KeyedSchemaValidator).
struct KeyedSchemas {
  struct Pattern {
    Regex regex;
    std::size_t schema = 0;
  };
  std::vector<std::string> named;  // the keys of "properties", which valijson applies itself; sorted
  std::vector<Pattern> patterns;
  std::optional<std::size_t> additional;  // none: any value
};

struct LeafAssertions {
  bool never = false;              // the schema was `false`
  std::string neverMessage;        // what to say then ("Unexpected key", ...)
  std::vector<std::string> types;  // "type", as written
  std::optional<json> enumValues;  // an array
  std::optional<json> constValue;
  std::optional<json> minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf;
  std::optional<std::uint64_t> minLength, maxLength, minItems, maxItems, minProperties, maxProperties;
  bool uniqueItems = false;  // checked by toold in linear time (valijson compares every pair)
  std::optional<Regex> pattern;
  std::string format;  // "date", "time" or "date-time"; empty when not checked
  std::vector<std::string> required;
  std::vector<std::pair<std::string, std::vector<std::string>>> dependentRequired;
  const LeafAssertions* keyNames = nullptr;  // a "propertyNames" made of leaf keywords only
  std::optional<KeyedSchemas> keyed;
};

/// Validates a value against keyed schema number `schema`, reporting into `results` when given;
/// implemented where valijson's validator is.
class KeyedSchemaValidator {
public:
  virtual bool validate(std::size_t schema, const valijson::adapters::Adapter& value,
                        const std::vector<std::string>& context, valijson::ValidationResults* results) const = 0;

protected:
  ~KeyedSchemaValidator() = default;
};

/// Pushed at a key after a keyed schema failed for its value, as valijson does after a child
/// schema failed: an issue of its own only when the child gave none.
inline constexpr const char* kKeyedChildFailed = "Failed to validate against a schema for this key";

/// A builder for kLeafKeyword, which valijson's parser owns once added. `table` and `keyed` must
/// outlive the valijson schema it builds.
std::unique_ptr<valijson::ConstraintBuilder> makeLeafConstraintBuilder(
    const std::vector<std::unique_ptr<LeafAssertions>>& table, const KeyedSchemaValidator& keyed);

/// A builder for kGuardKeyword (schema_lowering.h), which valijson's parser owns once added.
std::unique_ptr<valijson::ConstraintBuilder> makeGuardConstraintBuilder();

// ---- Compiling the keywords ----------------------------------------------------------------------

/// Moves the leaf keywords out of `node` into `into`, checking their values. Throws SchemaError.
void takeLeafAssertions(json& node, std::string_view where, LeafAssertions& into);

/// Compiles a pattern of `keyword` at `where`. Throws SchemaError naming the pattern.
Regex compilePattern(const std::string& source, std::string_view keyword, std::string_view where);

/// `Invalid "minLength" at #/properties/a: expected a non-negative integer`.
SchemaError invalidKeyword(std::string_view keyword, std::string_view where, std::string_view expected);

/// A JSON value for a message, cut at about 80 bytes on a UTF-8 boundary.
std::string shortJson(const json& value);

bool isStringArray(const json& value);

// ---- Reading the issues back ---------------------------------------------------------------------

/// An issue description pushed into valijson's results: toold's own (a type mismatch kept
/// structured, so that the branches of an anyOf can merge into "Expected string or null"), or
/// valijson's text.
struct DecodedIssue {
  bool isType = false;
  std::vector<std::string> expected;  // when isType
  std::string received;               // when isType
  std::string text;                   // otherwise; valijson's own wording when not toold's
  bool fromToold = false;
};

DecodedIssue decodeIssue(std::string_view description);

/// What to tell the model.
std::string issueText(const DecodedIssue& issue);

}  // namespace toold::core::schema_detail
