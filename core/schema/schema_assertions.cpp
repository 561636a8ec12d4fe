// Checking the leaf keywords toold takes from valijson, and the wording of what it finds. Compiling
// them is leaf_keywords.cpp.
#include "core/schema/schema_assertions.h"

#include "core/schema/schema_budget.h"
#include "core/schema/schema_formats.h"
#include "core/schema/schema_value_hash.h"
#include "core/schema/schema_limits.h"

#include "core/schema/valijson_without_iostream.h"
#include <valijson/adapters/std_string_adapter.hpp>
#include <valijson/constraint_builder.hpp>
#include <valijson/constraints/concrete_constraints.hpp>
#include <valijson/internal/adapter.hpp>
#include <valijson/validation_results.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <new>
#include <unordered_map>

namespace toold::core::schema_detail {

using valijson::adapters::Adapter;

namespace {

void charge(std::uint64_t steps) { ValidationMeter::charge(steps); }

// ---- Wording -------------------------------------------------------------------------------------

std::string plural(std::uint64_t count, std::string_view noun) {
  return std::to_string(count) + " " + std::string(noun) + (count == 1 ? "" : "s");
}

/// "a", "a or b", "a, b or c".
std::string joinAlternatives(const std::vector<std::string>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += i + 1 == items.size() ? " or " : ", ";
    out += items[i];
  }
  return out;
}

/// Issue descriptions that toold writes start with this byte, which valijson's never do. A type
/// mismatch stays structured ("<marker>type<marker>string,null<marker>number") so that the
/// branches of an anyOf can be merged into one "Expected string or null, received number".
constexpr char kIssueMarker = '\x1f';

std::string textIssue(std::string_view message) {
  return std::string(1, kIssueMarker) + "text" + kIssueMarker + std::string(message);
}

std::string typeIssue(const std::vector<std::string>& expected, std::string_view received) {
  std::string out = std::string(1, kIssueMarker) + "type" + kIssueMarker;
  for (std::size_t i = 0; i < expected.size(); ++i) out += (i > 0 ? "," : "") + expected[i];
  return out + kIssueMarker + std::string(received);
}

std::string typeMessage(const std::vector<std::string>& expected, std::string_view received) {
  return "Expected " + joinAlternatives(expected) + ", received " + std::string(received);
}

/// What to say when a string or key could not be searched: never a pass, never a plain mismatch.
std::string uncheckedMessage(std::string_view what, const Regex& regex, Regex::Result result) {
  return std::string(what) + " could not be checked against the pattern /" + regex.pattern() + "/ (" +
         (result == Regex::Result::InvalidUtf8 ? "not valid UTF-8" : "too costly") + ")";
}

// ---- Checking a value ----------------------------------------------------------------------------

std::string formatMessage(const std::string& format) {
  if (format == "date") return "Expected a date in the form YYYY-MM-DD";
  if (format == "time") return "Expected a time in the form HH:MM:SS with a time zone, e.g. 16:52:45Z";
  return "Expected a date-time in the form YYYY-MM-DDTHH:MM:SS with a time zone, e.g. 2024-07-18T16:52:45Z";
}

const char* kindOf(const Adapter& value) {
  if (value.isNull()) return "null";
  if (value.isBool()) return "boolean";
  if (value.isNumber()) return "number";
  if (value.isString()) return "string";
  if (value.isArray()) return "array";
  return "object";
}

bool isIntegral(const Adapter& value) {
  double number = 0;
  return value.isInteger() || (value.isDouble() && value.getDouble(number) && std::isfinite(number) &&
                               std::trunc(number) == number);
}

bool matchesType(const std::string& type, const Adapter& value) {
  if (type == "integer") return isIntegral(value);
  if (type == "number") return value.isNumber();
  return type == kindOf(value);
}

long double numberOf(const Adapter& value) {
  std::int64_t integer = 0;
  double number = 0;
  if (value.isInteger() && value.getInteger(integer)) return static_cast<long double>(integer);
  value.getDouble(number);
  return static_cast<long double>(number);
}

long double numberOf(const json& value) {
  if (value.is_number_unsigned()) return static_cast<long double>(value.get<std::uint64_t>());
  if (value.is_number_integer()) return static_cast<long double>(value.get<std::int64_t>());
  return static_cast<long double>(value.get<double>());
}

/// The value as JSON, for enum and const, which compare whole values (1 and 1.0 are equal).
json toJson(const Adapter& value) {
  charge(1);
  if (value.isObject()) {
    json object = json::object();
    value.applyToObject([&object](const std::string& key, const Adapter& member) {
      object[key] = toJson(member);
      return true;
    });
    return object;
  }
  if (value.isArray()) {
    json array = json::array();
    value.applyToArray([&array](const Adapter& item) {
      array.push_back(toJson(item));
      return true;
    });
    return array;
  }
  std::string text;
  std::int64_t integer = 0;
  double number = 0;
  if (value.isString() && value.getString(text)) {
    charge(text.size() / kBytesPerStep);
    return text;
  }
  if (value.isBool()) return value.getBool();
  if (value.isInteger() && value.getInteger(integer)) return integer;
  if (value.isDouble() && value.getDouble(number)) return number;
  return nullptr;
}

std::uint64_t codePoints(std::string_view text) {
  return static_cast<std::uint64_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

/// The first item equal to an earlier one, as (earlier, later) indexes. Hashing makes this linear
/// in the array's size (valijson compares every pair: 13 s for 20,000 items).
std::optional<std::pair<std::size_t, std::size_t>> firstDuplicate(const Adapter& array) {
  std::vector<json> items;
  items.reserve(array.getArraySize());
  array.applyToArray([&items](const Adapter& item) {
    items.push_back(toJson(item));
    return true;
  });
  std::unordered_map<std::size_t, std::vector<std::size_t>> seen;
  for (std::size_t i = 0; i < items.size(); ++i) {
    std::vector<std::size_t>& sameHash = seen[hashOf(items[i])];
    for (const std::size_t earlier : sameHash) {
      charge(1);
      if (items[earlier] == items[i]) return std::pair{earlier, i};
    }
    sameHash.push_back(i);
  }
  return std::nullopt;
}

bool isMultiple(const Adapter& value, const json& divisor) {
  // Whole numbers exactly; anything else within a relative tolerance, since 0.3 / 0.1 is not 3 in binary.
  std::int64_t integer = 0;
  if (value.isInteger() && value.getInteger(integer) && divisor.is_number_integer()) {
    const auto whole = divisor.get<std::uint64_t>();  // above 0, checked when compiled
    if (whole <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      return integer % static_cast<std::int64_t>(whole) == 0;
  }
  const long double quotient = numberOf(value) / numberOf(divisor);
  return std::fabs(quotient - std::nearbyint(quotient)) <= 1e-9L * std::max(1.0L, std::fabs(quotient));
}

bool checkLeafAssertions(const LeafAssertions& assertions, const Adapter& value,
                         const std::vector<std::string>& context, valijson::ValidationResults* results,
                         const KeyedSchemaValidator& keyed);

/// Checks every key name of an object against a "propertyNames" made of leaf keywords.
bool checkKeyNames(const LeafAssertions& names, const std::vector<std::string>& keys,
                   const std::vector<std::string>& context, valijson::ValidationResults* results,
                   const KeyedSchemaValidator& keyed) {
  bool ok = true;
  for (const std::string& key : keys) {
    valijson::ValidationResults keyResults;
    const valijson::adapters::StdStringAdapter keyValue(key);
    if (checkLeafAssertions(names, keyValue, context, results ? &keyResults : nullptr, keyed)) continue;
    ok = false;
    if (!results) return false;
    std::vector<std::string> at = context;
    at.push_back("[" + key + "]");
    valijson::ValidationResults::Error error;
    while (keyResults.popError(error)) {
      const std::string text = issueText(decodeIssue(error.description));
      results->pushError(at, textIssue(names.never ? text : "Invalid key name: " + text));
    }
  }
  return ok;
}

/// Applies "patternProperties" and the "additionalProperties" beside them to each member of an
/// object: every schema whose pattern matches the key, or the additional one when the key is
/// neither named in "properties" nor matched.
bool checkKeyed(const KeyedSchemas& schemas, const Adapter& object, const std::vector<std::string>& context,
                valijson::ValidationResults* results, const KeyedSchemaValidator& keyed) {
  bool ok = true;
  object.applyToObject([&](const std::string& key, const Adapter& member) {
    std::vector<std::string> at = context;
    at.push_back("[" + key + "]");
    // Records a failure at the key; answers whether to go on.
    const auto fail = [&](const std::string& description) {
      ok = false;
      if (results) results->pushError(at, description);
      return results != nullptr;
    };
    charge(1 + schemas.patterns.size() * (1 + key.size() / kBytesPerStep));
    bool matched = std::binary_search(schemas.named.begin(), schemas.named.end(), key);
    for (const KeyedSchemas::Pattern& pattern : schemas.patterns) {
      const Regex::Result result = pattern.regex.search(key);
      if (result == Regex::Result::NoMatch) continue;
      // A key that could not be checked counts as matched, so that it is not also called unexpected.
      matched = true;
      if (result != Regex::Result::Match) {
        if (!fail(textIssue(uncheckedMessage("Key", pattern.regex, result)))) return false;
      } else if (!keyed.validate(pattern.schema, member, at, results) && !fail(kKeyedChildFailed)) {
        return false;
      }
    }
    if (!matched && schemas.additional && !keyed.validate(*schemas.additional, member, at, results) &&
        !fail(kKeyedChildFailed))
      return false;
    return true;
  });
  return ok;
}

/// Checks a value against the assertions, reporting every failure into `results` when given
/// (when not, valijson is probing an anyOf, not or if branch: stop at the first).
bool checkLeafAssertions(const LeafAssertions& assertions, const Adapter& value,
                         const std::vector<std::string>& context, valijson::ValidationResults* results,
                         const KeyedSchemaValidator& keyed) {
  // One step for applying this subschema, and one per member valijson's own keywords of it may
  // look at (properties, items, ...), whether or not this schema looks at them itself.
  charge(1 + (value.isArray() ? value.getArraySize() : value.isObject() ? value.getObjectSize() : 0));
  bool ok = true;
  // Records a failure; answers whether to go on looking for more.
  auto fail = [&](const std::vector<std::string>& at, const std::string& description) {
    ok = false;
    if (results) {
      charge(1);
      results->pushError(at, description);
    }
    return results != nullptr;
  };
  auto failHere = [&](const std::string& message) { return fail(context, textIssue(message)); };
  if (assertions.never) {
    failHere(assertions.neverMessage);
    return false;
  }
  if (!assertions.types.empty() &&
      std::none_of(assertions.types.begin(), assertions.types.end(),
                   [&value](const std::string& type) { return matchesType(type, value); })) {
    // Alone: the other keywords would only say the same thing again.
    fail(context, typeIssue(assertions.types, kindOf(value)));
    return false;
  }
  if (assertions.constValue || assertions.enumValues) {
    const json whole = toJson(value);
    if (assertions.constValue && whole != *assertions.constValue &&
        !failHere("Expected " + shortJson(*assertions.constValue)))
      return false;
    const json* values = assertions.enumValues ? &*assertions.enumValues : nullptr;
    if (values) charge(values->size());
    if (values && std::find(values->begin(), values->end(), whole) == values->end()) {
      std::string message = values->size() == 1 ? "Expected " : "Expected one of: ";
      constexpr std::size_t kShown = 20;
      for (std::size_t i = 0; i < values->size() && i < kShown; ++i)
        message += (i > 0 ? ", " : "") + shortJson((*values)[i]);
      if (values->size() > kShown) message += " (and " + std::to_string(values->size() - kShown) + " more)";
      if (!failHere(message)) return false;
    }
  }
  const auto& a = assertions;
  if (value.isNumber()) {
    const long double number = numberOf(value);
    if (a.minimum && number < numberOf(*a.minimum) &&
        !failHere("Expected a value greater than or equal to " + a.minimum->dump()))
      return false;
    if (a.exclusiveMinimum && number <= numberOf(*a.exclusiveMinimum) &&
        !failHere("Expected a value greater than " + a.exclusiveMinimum->dump()))
      return false;
    if (a.maximum && number > numberOf(*a.maximum) &&
        !failHere("Expected a value less than or equal to " + a.maximum->dump()))
      return false;
    if (a.exclusiveMaximum && number >= numberOf(*a.exclusiveMaximum) &&
        !failHere("Expected a value less than " + a.exclusiveMaximum->dump()))
      return false;
    if (a.multipleOf && !isMultiple(value, *a.multipleOf) &&
        !failHere("Expected a multiple of " + a.multipleOf->dump()))
      return false;
  }
  // A string is copied and measured only for a keyword that looks at it: an output's long text
  // under a bare {"type": "string"} costs nothing here.
  if (value.isString() && (a.minLength || a.maxLength || a.pattern || !a.format.empty())) {
    std::string text;
    value.getString(text);
    charge(text.size() / kBytesPerStep);
    const std::uint64_t length = a.minLength || a.maxLength ? codePoints(text) : 0;
    if (a.minLength && length < *a.minLength &&
        !failHere("Expected a string of at least " + plural(*a.minLength, "character") + ", received " +
                  std::to_string(length)))
      return false;
    if (a.maxLength && length > *a.maxLength &&
        !failHere("Expected a string of at most " + plural(*a.maxLength, "character") + ", received " +
                  std::to_string(length)))
      return false;
    if (a.pattern) {
      charge(text.size() / kBytesPerStep);
      const Regex::Result result = a.pattern->search(text);
      if (result == Regex::Result::NoMatch &&
          !failHere("Expected a string matching the pattern /" + a.pattern->pattern() + "/"))
        return false;
      if ((result == Regex::Result::TooCostly || result == Regex::Result::InvalidUtf8) &&
          !failHere(uncheckedMessage("String", *a.pattern, result)))
        return false;
    }
    const bool formatOk = a.format.empty() || (a.format == "date" ? isDate(text)
                                               : a.format == "time" ? isTime(text)
                                                                    : isDateTime(text));
    if (!formatOk && !failHere(formatMessage(a.format))) return false;
  }
  if (value.isArray()) {
    const std::uint64_t size = value.getArraySize();
    if (assertions.minItems && size < *assertions.minItems &&
        !failHere("Expected an array of at least " + plural(*assertions.minItems, "item") + ", received " +
                  std::to_string(size)))
      return false;
    if (assertions.maxItems && size > *assertions.maxItems &&
        !failHere("Expected an array of at most " + plural(*assertions.maxItems, "item") + ", received " +
                  std::to_string(size)))
      return false;
    if (assertions.uniqueItems) {
      if (const auto duplicate = firstDuplicate(value);
          duplicate && !failHere("Expected unique items; [" + std::to_string(duplicate->first) + "] and [" +
                                 std::to_string(duplicate->second) + "] are equal"))
        return false;
    }
  }
  const bool looksAtKeys = a.minProperties || a.maxProperties || !a.required.empty() || !a.dependentRequired.empty() ||
                           a.keyNames || a.keyed;
  if (value.isObject() && looksAtKeys) {
    std::vector<std::string> keys;
    value.applyToObject([&keys](const std::string& key, const Adapter&) {
      charge(key.size() / kBytesPerStep);
      keys.push_back(key);
      return true;
    });
    // Sorted, so that each of "required" (100,000 keys or more) is looked up in log time.
    std::sort(keys.begin(), keys.end());
    const auto has = [&keys](const std::string& key) { return std::binary_search(keys.begin(), keys.end(), key); };
    charge(a.required.size());
    if (a.minProperties && keys.size() < *a.minProperties &&
        !failHere("Expected an object with at least " + plural(*a.minProperties, "key") + ", received " +
                  std::to_string(keys.size())))
      return false;
    if (a.maxProperties && keys.size() > *a.maxProperties &&
        !failHere("Expected an object with at most " + plural(*a.maxProperties, "key") + ", received " +
                  std::to_string(keys.size())))
      return false;
    auto missing = [&](const std::string& key, const std::string& message) {
      std::vector<std::string> at = context;
      at.push_back("[" + key + "]");
      return fail(at, textIssue(message));
    };
    for (const std::string& key : a.required)
      if (!has(key) && !missing(key, "Missing key")) return false;
    for (const auto& [trigger, needed] : a.dependentRequired) {
      charge(1);
      if (!has(trigger)) continue;
      charge(needed.size());
      for (const std::string& key : needed)
        if (!has(key) && !missing(key, "Missing key (required when \"" + trigger + "\" is present)")) return false;
    }
    if (a.keyNames && !checkKeyNames(*a.keyNames, keys, context, results, keyed)) {
      ok = false;
      if (!results) return false;
    }
    if (a.keyed && !checkKeyed(*a.keyed, value, context, results, keyed)) {
      ok = false;
      if (!results) return false;
    }
  }
  return ok;
}

/// Turns the kLeafKeyword index the parser finds into a constraint that runs checkLeafAssertions.
class LeafConstraint final : public valijson::constraints::PolyConstraint {
public:
  LeafConstraint(const LeafAssertions* assertions, const KeyedSchemaValidator* keyed)
      : assertions_(assertions), keyed_(keyed) {}

  bool validate(const Adapter& target, const std::vector<std::string>& context,
                valijson::ValidationResults* results) const override {
    return checkLeafAssertions(*assertions_, target, context, results, *keyed_);
  }

private:
  valijson::constraints::Constraint* cloneInto(void* where) const override {
    return new (where) LeafConstraint(assertions_, keyed_);
  }
  std::size_t sizeOf() const override { return sizeof(LeafConstraint); }

  // Both owned by the compiled schema, which outlives its valijson schema.
  const LeafAssertions* assertions_;
  const KeyedSchemaValidator* keyed_;
};

class LeafConstraintBuilder final : public valijson::ConstraintBuilder {
public:
  LeafConstraintBuilder(const std::vector<std::unique_ptr<LeafAssertions>>& table, const KeyedSchemaValidator& keyed)
      : table_(table), keyed_(keyed) {}

  valijson::constraints::Constraint* make(const Adapter& node) const override {
    checkCompileStack();  // valijson's parser recurses through "$ref"s; it calls this once per subschema
    std::int64_t index = -1;
    if (!node.getInteger(index) || index < 0 || static_cast<std::size_t>(index) >= table_.size())
      throw SchemaError("Internal error: a leaf assertion index is out of range");
    return new LeafConstraint(table_[static_cast<std::size_t>(index)].get(), &keyed_);
  }

private:
  const std::vector<std::unique_ptr<LeafAssertions>>& table_;
  const KeyedSchemaValidator& keyed_;
};

/// The depth guard (kGuardKeyword): a constraint that only checks the stack, on the way down.
class GuardConstraint final : public valijson::constraints::PolyConstraint {
public:
  bool validate(const Adapter&, const std::vector<std::string>&, valijson::ValidationResults*) const override {
    charge(0);  // the meter checks the stack's depth at every charge
    return true;
  }

private:
  valijson::constraints::Constraint* cloneInto(void* where) const override { return new (where) GuardConstraint(); }
  std::size_t sizeOf() const override { return sizeof(GuardConstraint); }
};

class GuardConstraintBuilder final : public valijson::ConstraintBuilder {
public:
  valijson::constraints::Constraint* make(const Adapter&) const override {
    checkCompileStack();  // reached before valijson's parser recurses into the schema's children
    return new GuardConstraint();
  }
};

}  // namespace

std::unique_ptr<valijson::ConstraintBuilder> makeGuardConstraintBuilder() {
  return std::make_unique<GuardConstraintBuilder>();
}

std::unique_ptr<valijson::ConstraintBuilder> makeLeafConstraintBuilder(
    const std::vector<std::unique_ptr<LeafAssertions>>& table, const KeyedSchemaValidator& keyed) {
  return std::make_unique<LeafConstraintBuilder>(table, keyed);
}

// ---- Reading the issues back ---------------------------------------------------------------------

DecodedIssue decodeIssue(std::string_view description) {
  DecodedIssue out;
  if (description.empty() || description.front() != kIssueMarker) {
    out.text = std::string(description);
    return out;
  }
  out.fromToold = true;
  const std::size_t kindEnd = description.find(kIssueMarker, 1);
  const std::string_view kind = description.substr(1, kindEnd - 1);
  const std::string_view rest = kindEnd == std::string_view::npos ? "" : description.substr(kindEnd + 1);
  if (kind != "type") {
    out.text = std::string(rest);
    return out;
  }
  out.isType = true;
  const std::size_t split = rest.find(kIssueMarker);
  std::string_view list = rest.substr(0, split);
  out.received = split == std::string_view::npos ? "" : std::string(rest.substr(split + 1));
  while (!list.empty()) {
    const std::size_t comma = list.find(',');
    out.expected.emplace_back(list.substr(0, comma));
    list = comma == std::string_view::npos ? "" : list.substr(comma + 1);
  }
  return out;
}

std::string issueText(const DecodedIssue& issue) {
  return issue.isType ? typeMessage(issue.expected, issue.received) : issue.text;
}

}  // namespace toold::core::schema_detail
