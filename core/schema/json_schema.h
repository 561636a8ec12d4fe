// JSON Schema for tool inputs and outputs: a schema is compiled once, then validates values from
// any thread and explains each failure in words a model can act on.
//
// Dialect: a document is draft-07 when its "$schema" is a string containing "draft-07" or it has
// a top-level "definitions"; otherwise it is 2020-12. Validation runs on valijson (which knows
// draft 3, 4 and 7), so a 2020-12 document is lowered to draft-07 on a copy first; document()
// still returns the schema exactly as given. Anything that cannot be enforced faithfully makes
// compile() throw SchemaError instead of being ignored.
//
// 2020-12 keywords, as this file handles them:
//   Enforced:  type, enum, const, multipleOf, maximum, exclusiveMaximum, minimum,
//              exclusiveMinimum, maxLength, minLength, pattern, maxItems, minItems, uniqueItems,
//              maxProperties, minProperties, required, properties, patternProperties,
//              additionalProperties, propertyNames, items, contains, allOf, anyOf, oneOf, not,
//              if, then, else, $ref (local: "#" or "#/<JSON pointer>"), $defs,
//              format "date", "time" and "date-time" (RFC 3339; other formats are annotations)
//   Regular expressions ("pattern", "patternProperties"): ECMA-262, as JSON Schema says, run by
//              PCRE2 on code points (see core/schema/regex.h). As in ECMA-262: \d, \w and \b are ASCII,
//              "$" matches only at the end, "." matches no line terminator, \uXXXX and \u{X...}
//              escapes, "[^]", back-references (allowed). Unlike it: \s is ASCII whitespace only,
//              "." does not match VT, FF or U+0085 either, and PCRE2's own syntax is accepted too.
//   Lowered:   prefixItems + items  -> draft-07 "items" array + "additionalItems"
//              dependentSchemas     -> draft-07 "dependencies" (schema form)
//              dependentRequired    -> checked by toold ("Missing key" when the trigger is present)
//              patternProperties, and the additionalProperties beside them -> applied by toold,
//                                    which matches the keys (valijson would use std::regex)
//              $ref beside other keywords -> an "allOf" entry, so both apply (draft-07 would ignore
//                                    the siblings)
//   Annotations, accepted and not checked: $schema, $id (at the root only), $anchor, $comment,
//              $vocabulary, title, description, default (see applyDefaults), examples,
//              deprecated, readOnly, writeOnly, contentEncoding, contentMediaType, contentSchema,
//              any other format. Unknown keywords are ignored, as the specification says.
//   Refused (SchemaError): unevaluatedProperties, unevaluatedItems, $dynamicRef, $dynamicAnchor,
//              $recursiveRef, $recursiveAnchor, minContains, maxContains, any $ref that is not
//              local (URLs, other files, "#name" anchors) or that points at something other than a
//              schema, $id below the root, a $ref cycle that never descends into the value, a
//              regular expression PCRE2 cannot compile that way (a lookbehind of varying length,
//              an escaped surrogate such as \uD83D, recursion into the whole pattern, ...).
// Draft-07 documents: the same, plus "definitions", "dependencies" and "items" arrays with
// "additionalItems"; the 2020-12-only prefixItems, dependentRequired, dependentSchemas,
// minContains and maxContains are refused there, and keywords beside "$ref" are ignored, as
// draft-07 says. A 2020-12 document may also use "dependencies" and an "items" array.
//
// Limits: strings and keys of any length are searched, each search within PCRE2's limits (10
// million steps in all, 32 MiB of backtracking memory); one that reaches them fails with "String
// could not be checked against the pattern /.../ (too costly)" ("Key ..." for patternProperties)
// rather than passing or running on, and so does one that is not valid UTF-8 ("not valid UTF-8").
// Every starting position of an unanchored pattern counts, so its search is too costly past a few
// million characters (about ten million for a simple one); an anchored one ("^...") has no such
// bound. A value nested deeper than 256 levels is refused.
//
// Cost: a schema is refused at compile() past the limits of schema_limits.h (128 levels, 250,000
// JSON values, 4 MiB of strings). A validation runs within a ValidationBudget (schema_budget.h):
// 20 million steps or 3 seconds by default, fewer when the caller says so. uniqueItems is checked
// by hashing (linear), "required" by bisection over the sorted keys; at most 100 issues are kept.
#pragma once

#include "core/schema/schema_budget.h"
#include "core/schema/schema_issue.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

namespace toold::core {

/// A compiled schema. Immutable once built; validate() and applyDefaults() may run on many threads
/// at once.
class CompiledSchema {
public:
  /// Throws SchemaError.
  static std::shared_ptr<const CompiledSchema> compile(const json& document);

  ~CompiledSchema();
  CompiledSchema(const CompiledSchema&) = delete;
  CompiledSchema& operator=(const CompiledSchema&) = delete;

  SchemaDialect dialect() const;
  /// The schema exactly as given, to advertise verbatim.
  const json& document() const;

  /// Every leaf issue, in the value's document order; empty when the value is valid. Within the
  /// default budget; past it, one issue says the value could not be checked.
  std::vector<SchemaIssue> validate(const json& value) const;

  /// Fills in missing object properties whose schema has a "default", recursively (through
  /// properties, items, allOf and local $ref), so a tool sees the defaults before it runs.
  void applyDefaults(json& value) const;

  /// What a budgeted decode or check found.
  struct Checked {
    enum class Status {
      Valid,
      Invalid,     // `issues` says why
      OverBudget,  // the budget ran out: `issues` holds those found before, which are enough to
                   // refuse the value, or else one saying it could not be checked
      Cancelled,  // the budget's token fired; the value may be half filled in
    };
    Status status = Status::Valid;
    std::vector<SchemaIssue> issues;
  };

  /// applyDefaults (when the schema has any) then validate, both within one budget.
  Checked decode(json& value, const ValidationBudget& budget) const;
  /// validate within `budget`.
  Checked check(const json& value, const ValidationBudget& budget) const;
  /// False when applyDefaults can never change a value, so callers may skip copying it first.
  bool hasDefaults() const;

private:
  /// Fills in `fillIn`'s defaults when given (then validates it), else validates `value`.
  Checked run(json* fillIn, const json& value, const ValidationBudget& budget) const;

  struct Impl;
  explicit CompiledSchema(std::unique_ptr<const Impl> impl);

  std::unique_ptr<const Impl> impl_;
};

}  // namespace toold::core
