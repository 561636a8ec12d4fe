// Compiling schemas with valijson, and turning its results into issues a model can act on.
#include "core/schema/json_schema.h"

#include "core/schema/flat_object_acceptor.h"
#include "core/schema/schema_assertions.h"
#include "core/schema/schema_budget.h"
#include "core/schema/schema_limits.h"
#include "core/schema/schema_lowering.h"

#include "core/schema/valijson_without_iostream.h"
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/constraint_builder.hpp>
#include <valijson/constraints/concrete_constraints.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validation_visitor.hpp>

#include <algorithm>
#include <charconv>
#include <optional>
#include <regex>
#include <string_view>
#include <unordered_map>
#include <utility>

#if !VALIJSON_USE_EXCEPTIONS
// Otherwise a bad schema would abort the process instead of throwing.
#error "valijson must report errors as exceptions (VALIJSON_USE_EXCEPTIONS=1)"
#endif

namespace toold::core {

using schema_detail::DecodedIssue;
using schema_detail::ValidationMeter;
using valijson::adapters::NlohmannJsonAdapter;

namespace {

/// Deeper values are refused rather than validated: valijson and the default filler recurse once
/// per level, and a recursive schema would follow a hostile value all the way down the stack.
constexpr std::size_t kMaxDepth = 256;

/// Issues kept per validation: the model is shown a few, and merging each new issue into the kept
/// ones compares it with all of them.
constexpr std::size_t kMaxIssues = 100;

/// Where the parser finds the lowered document (see SchemaHandles).
constexpr std::string_view kLoweredUri = "toold://lowered";

SchemaDialect detectDialect(const json& document) {
  if (document.is_object()) {
    const auto declared = document.find("$schema");
    if (declared != document.end() && declared->is_string() &&
        declared->get<std::string>().find("draft-07") != std::string::npos)
      return SchemaDialect::Draft07;
    if (document.contains("definitions")) return SchemaDialect::Draft07;
  }
  return SchemaDialect::Draft2020_12;
}

/// One step of a path into a value: an object key or an array index.
struct PathStep {
  bool isIndex = false;
  std::size_t index = 0;
  std::string key;

  bool operator==(const PathStep&) const = default;
};
using Path = std::vector<PathStep>;

/// "a.b[0].c"; "root" for the value itself.
std::string renderPath(const Path& path) {
  if (path.empty()) return "root";
  std::string out;
  for (const PathStep& step : path) {
    if (step.isIndex)
      out += "[" + std::to_string(step.index) + "]";
    else
      out += (out.empty() ? "" : ".") + step.key;
  }
  return out;
}

/// Document order: nlohmann's objects keep keys sorted, arrays by index, a parent before its children.
bool pathBefore(const Path& left, const Path& right) {
  for (std::size_t i = 0; i < left.size() && i < right.size(); ++i) {
    const PathStep& a = left[i];
    const PathStep& b = right[i];
    if (a.isIndex != b.isIndex) return a.isIndex;
    if (a.isIndex && a.index != b.index) return a.index < b.index;
    if (!a.isIndex && a.key != b.key) return a.key < b.key;
  }
  return left.size() < right.size();
}

bool startsWith(const Path& path, const Path& prefix) {
  return path.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), path.begin());
}

/// A step named "[...]" by valijson: an index when the value there is an array, else a key (an
/// object may well have a key "0").
std::optional<std::size_t> arrayIndex(const json* node, std::string_view name) {
  std::size_t index = 0;
  if (!node || !node->is_array() || name.empty()) return std::nullopt;
  const auto [end, error] = std::from_chars(name.data(), name.data() + name.size(), index);
  if (error != std::errc() || end != name.data() + name.size()) return std::nullopt;
  return index;
}

/// valijson's context ("<root>", "[name]", "[0]", ...) as a path into `value`.
Path pathOf(const std::vector<std::string>& context, const json& value) {
  Path path;
  const json* node = &value;
  for (std::size_t i = 0; i < context.size(); ++i) {
    const std::string& element = context[i];
    if (i == 0 && element == "<root>") continue;
    const bool bracketed = element.size() >= 2 && element.front() == '[' && element.back() == ']';
    const std::string name = bracketed ? element.substr(1, element.size() - 2) : element;
    if (const auto index = arrayIndex(node, name)) {
      path.push_back({true, *index, {}});
      node = *index < node->size() ? &(*node)[*index] : nullptr;
    } else {
      path.push_back({false, 0, name});
      node = node && node->is_object() && node->contains(name) ? &(*node)[name] : nullptr;
    }
  }
  return path;
}

/// valijson's wording for what its own checks found, rephrased; unknown texts pass unchanged.
std::string rephrase(const std::string& text) {
  if (text.starts_with("Failed to any values against subschema in 'contains'"))
    return "Expected at least one item matching the \"contains\" schema";
  if (text.starts_with("Target should not validate against schema specified in 'not'"))
    return "Value must not match the \"not\" schema";
  if (text.starts_with("Failed to validate against exactly one child schema"))
    return "Value matches more than one of the \"oneOf\" schemas; it must match exactly one";
  if (text.starts_with("Elements at indexes #")) {
    // "Elements at indexes #0 and #2 violate uniqueness constraint."
    const std::size_t first = text.find('#');
    const std::size_t second = text.find('#', first + 1);
    const std::size_t firstEnd = text.find(' ', first);
    const std::size_t secondEnd = text.find(' ', second);
    if (second != std::string::npos && firstEnd != std::string::npos && secondEnd != std::string::npos)
      return "Expected unique items; [" + text.substr(first + 1, firstEnd - first - 1) + "] and [" +
             text.substr(second + 1, secondEnd - second - 1) + "] are equal";
    return "Expected unique items";
  }
  return text;
}

/// valijson's reports that a child schema failed. They add nothing when the child reported its
/// own issues; the child's path is returned so the caller can tell.
std::optional<std::vector<std::string>> wrapperChild(const std::string& text, const std::vector<std::string>& context) {
  static const char* const kWrappers[] = {"Failed to validate against schema associated with",
                                          "Failed to validate against additional properties schema",
                                          "Failed to validate against child schema #",
                                          "Failed to validate against any schemas allowed by anyOf",
                                          "Failed to validate against any child schemas allowed by oneOf",
                                          "Failed to validate against a conditional schema",
                                          "Failed to validate against dependent schema",
                                          schema_detail::kKeyedChildFailed,
                                          "Failed to validate item #",
                                          "Cannot validate item #",
                                          "Array contains more items than allowed by items constraint"};
  if (std::none_of(std::begin(kWrappers), std::end(kWrappers), [&text](const char* w) { return text.starts_with(w); }))
    return std::nullopt;
  std::vector<std::string> child = context;
  static constexpr std::string_view kProperty = "Failed to validate against schema associated with property name '";
  static constexpr std::string_view kItem = "Failed to validate item #";
  if (text.starts_with(kProperty) && text.ends_with("'.")) {
    child.push_back("[" + text.substr(kProperty.size(), text.size() - kProperty.size() - 2) + "]");
  } else if (text.starts_with(kItem) && !text.ends_with("corresponding item schema.")) {
    child.push_back("[" + text.substr(kItem.size(), text.find(' ', kItem.size()) - kItem.size()) + "]");
  }
  return child;
}

/// For a failure nobody explained (valijson reports none for a "propertyNames" it checks).
DecodedIssue unexplained() {
  DecodedIssue issue;
  issue.text = "Value does not match the schema";
  return issue;
}

struct CollectedIssue {
  Path path;
  DecodedIssue issue;
};

/// Adds an issue unless it says again what one at the same path says; type mismatches at the same
/// path (the branches of an anyOf) merge into one "Expected string or null, received number".
void addIssue(std::vector<CollectedIssue>& issues, Path path, DecodedIssue issue) {
  for (CollectedIssue& existing : issues) {
    if (existing.path != path) continue;
    if (existing.issue.isType && issue.isType && existing.issue.received == issue.received) {
      for (const std::string& type : issue.expected)
        if (std::find(existing.issue.expected.begin(), existing.issue.expected.end(), type) ==
            existing.issue.expected.end())
          existing.issue.expected.push_back(type);
      return;
    }
    if (schema_detail::issueText(existing.issue) == schema_detail::issueText(issue)) return;
  }
  issues.push_back({std::move(path), std::move(issue)});
}

std::vector<SchemaIssue> collectIssues(const valijson::ValidationResults& results, const json& value) {
  std::vector<CollectedIssue> issues;
  for (const valijson::ValidationResults::Error& error : results) {
    if (issues.size() >= kMaxIssues) break;
    DecodedIssue issue = schema_detail::decodeIssue(error.description);
    if (!issue.fromToold) {
      if (const auto child = wrapperChild(issue.text, error.context)) {
        // Kept only when the child failed without saying why.
        Path childPath = pathOf(*child, value);
        const auto explains = [&childPath](const CollectedIssue& c) { return startsWith(c.path, childPath); };
        if (std::none_of(issues.begin(), issues.end(), explains))
          addIssue(issues, std::move(childPath), unexplained());
        continue;
      }
      issue.text = rephrase(issue.text);
    }
    addIssue(issues, pathOf(error.context, value), std::move(issue));
  }
  if (issues.empty()) issues.push_back({{}, unexplained()});
  std::stable_sort(issues.begin(), issues.end(),
                   [](const CollectedIssue& a, const CollectedIssue& b) { return pathBefore(a.path, b.path); });
  std::vector<SchemaIssue> out;
  out.reserve(issues.size());
  for (const CollectedIssue& collected : issues)
    out.push_back({renderPath(collected.path), schema_detail::issueText(collected.issue)});
  return out;
}

/// What makes a value unsafe to hand to valijson: too deep. (Keys of any length are fine: toold
/// matches them against "patternProperties" with PCRE2, within its limits.)
std::optional<SchemaIssue> refuseUncheckable(const json& value, std::size_t depth) {
  if (depth > kMaxDepth)
    return SchemaIssue{"root", "Value is nested more than " + std::to_string(kMaxDepth) + " levels deep"};
  if (value.is_structured())
    for (const json& child : value)
      if (auto issue = refuseUncheckable(child, depth + 1)) return issue;
  return std::nullopt;
}

/// Validates a value against a subschema, as valijson's Validator does for a whole schema.
bool validateAgainst(const valijson::Subschema& schema, const NlohmannJsonAdapter& value,
                     const std::vector<std::string>& context, valijson::ValidationResults* results) {
  // valijson's cache for the regular expressions of its "pattern" and "patternProperties", which
  // toold takes from it: never filled.
  std::unordered_map<std::string, std::regex> unused;
  valijson::ValidationVisitor<NlohmannJsonAdapter> visitor(value, context, true, results, unused);
  return visitor.validateSchema(schema);
}

/// The valijson schemas toold validates against: the root, and the keyed schemas, which toold
/// applies itself (see schema_assertions.h). valijson parses them in one go from a stub,
/// {"anyOf": [{"$ref": "toold://lowered#"}, {"$ref": "toold://lowered#/$toold-keyed/0"}, ...]},
/// whose references lead into the lowered document, and whose anyOf lists them in that order.
class SchemaHandles final : public schema_detail::KeyedSchemaValidator {
public:
  void parse(valijson::SchemaParser& parser, const schema_detail::LoweredSchema& lowered) {
    json stub = {{"anyOf", json::array({{{"$ref", std::string(kLoweredUri) + "#"}}})}};
    for (std::size_t i = 0; i < lowered.keyedCount; ++i)
      stub["anyOf"].push_back(
          {{"$ref", std::string(kLoweredUri) + "#/" + schema_detail::kKeyedKeyword + "/" + std::to_string(i)}});
    const json* document = &lowered.document;
    parser.populateSchema(
        NlohmannJsonAdapter(stub), stub_,
        [document](const std::string& uri) -> const json* { return uri == kLoweredUri ? document : nullptr; },
        [](const json*) {});  // not ours to free
    valijson::Subschema::ApplyFunction collect = [this](const valijson::constraints::Constraint& constraint) {
      if (const auto* anyOf = dynamic_cast<const valijson::constraints::AnyOfConstraint*>(&constraint))
        anyOf->applyToSubschemas([this](unsigned, const valijson::Subschema* schema) {
          schemas_.push_back(schema);
          return true;
        });
      return true;
    };
    stub_.apply(collect);
    if (schemas_.size() != 1 + lowered.keyedCount) throw SchemaError("Internal error: the keyed schemas are missing");
  }

  const valijson::Subschema& root() const { return *schemas_.front(); }

  bool validate(std::size_t schema, const valijson::adapters::Adapter& value, const std::vector<std::string>& context,
                valijson::ValidationResults* results) const override {
    // Keyed schemas apply to the members of an object, which valijson hands over as the adapter
    // it validates the object with (property names, checked as strings, have no members).
    const auto* member = dynamic_cast<const NlohmannJsonAdapter*>(&value);
    if (!member) throw std::logic_error("a keyed schema was applied to something other than a JSON value");
    return validateAgainst(*schemas_.at(schema + 1), *member, context, results);
  }

private:
  valijson::Schema stub_;  // owns every subschema
  std::vector<const valijson::Subschema*> schemas_;
};

// ---- Defaults ------------------------------------------------------------------------------------

/// Follows a lowered "$ref" (always local, canonical, with "%" escaped) to its schema.
const json* follow(const json& root, const json& schema) {
  const auto ref = schema.is_object() ? schema.find("$ref") : schema.end();
  if (!schema.is_object() || ref == schema.end() || !ref->is_string()) return nullptr;
  std::string pointer = ref->get<std::string>().substr(1);
  for (std::size_t at = pointer.find("%25"); at != std::string::npos; at = pointer.find("%25", at + 1))
    pointer.replace(at, 3, "%");
  return schema_detail::nodeAt(root, pointer);
}

/// The schemas that apply to the same value alongside `schema`: allOf, and the oneOf of one branch
/// that the lowering chains an allOf's later branches through.
std::vector<const json*> alongside(const json& schema) {
  std::vector<const json*> parts;
  if (const auto allOf = schema.find("allOf"); allOf != schema.end() && allOf->is_array())
    for (const json& part : *allOf) parts.push_back(&part);
  if (const auto oneOf = schema.find("oneOf"); oneOf != schema.end() && oneOf->is_array() && oneOf->size() == 1)
    parts.push_back(&(*oneOf)[0]);
  return parts;
}

/// The "default" of a property's schema: its own, or that of what it refers to.
const json* defaultOf(const json& root, const json& schema, std::size_t depth) {
  if (depth > kMaxDepth || !schema.is_object()) return nullptr;
  ValidationMeter::charge(1);
  if (const auto found = schema.find("default"); found != schema.end()) return &*found;
  if (const json* target = follow(root, schema)) return defaultOf(root, *target, depth + 1);
  for (const json* part : alongside(schema))
    if (const json* found = defaultOf(root, *part, depth + 1)) return found;
  return nullptr;
}

void fillDefaults(const json& root, const json& schema, json& value, std::size_t depth) {
  if (depth > kMaxDepth || !schema.is_object()) return;
  // Like validation, filling in follows every allOf branch and "$ref": as exponential for the
  // same schemas, and metered the same way.
  ValidationMeter::charge(1 + (value.is_structured() ? value.size() : 0));
  if (const json* target = follow(root, schema)) return fillDefaults(root, *target, value, depth + 1);
  for (const json* part : alongside(schema)) fillDefaults(root, *part, value, depth + 1);
  if (const auto properties = schema.find("properties"); value.is_object() && properties != schema.end()) {
    for (auto it = properties->begin(); it != properties->end(); ++it) {
      if (!value.contains(it.key()))
        if (const json* fallback = defaultOf(root, it.value(), 0)) value[it.key()] = *fallback;
      if (value.contains(it.key())) fillDefaults(root, it.value(), value[it.key()], depth + 1);
    }
  }
  const auto items = schema.find("items");
  if (!value.is_array() || items == schema.end()) return;
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (!items->is_array()) {
      fillDefaults(root, *items, value[i], depth + 1);
    } else if (i < items->size()) {
      fillDefaults(root, (*items)[i], value[i], depth + 1);
    } else if (const auto rest = schema.find("additionalItems"); rest != schema.end()) {
      fillDefaults(root, *rest, value[i], depth + 1);
    }
  }
}

}  // namespace

namespace {

/// Whether `key` appears as an object key anywhere in `value` (a property named so counts too:
/// the answer may only err towards true).
bool mentionsKey(const json& value, std::string_view key) {
  if (value.is_object()) {
    for (const auto& [name, member] : value.items())
      if (name == key || mentionsKey(member, key)) return true;
  } else if (value.is_array()) {
    for (const auto& member : value)
      if (mentionsKey(member, key)) return true;
  }
  return false;
}

}  // namespace

struct CompiledSchema::Impl {
  SchemaDialect dialect = SchemaDialect::Draft2020_12;
  json document;
  schema_detail::LoweredSchema lowered;  // before `schemas`: their constraints point into it (and into `schemas`)
  SchemaHandles schemas;
  bool hasDefaults = false;
  // A quick "valid" for flat object schemas (most tools' inputs); everything else is valijson's.
  std::optional<schema_detail::FlatObjectAcceptor> acceptor;
};

CompiledSchema::CompiledSchema(std::unique_ptr<const Impl> impl) : impl_(std::move(impl)) {}

bool CompiledSchema::hasDefaults() const { return impl_->hasDefaults; }
CompiledSchema::~CompiledSchema() = default;

std::shared_ptr<const CompiledSchema> CompiledSchema::compile(const json& document) {
  checkSchemaSize(document);  // before anything walks it recursively, or copies it
  const CompileStackGuard stack;
  auto impl = std::make_unique<Impl>();
  impl->dialect = detectDialect(document);
  impl->document = document;
  impl->hasDefaults = mentionsKey(document, "default");
  impl->acceptor = schema_detail::FlatObjectAcceptor::compile(document);
  try {
    impl->lowered = schema_detail::lowerSchema(document, impl->dialect);
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    auto builder = schema_detail::makeLeafConstraintBuilder(impl->lowered.assertions, impl->schemas);
    parser.addConstraintBuilder(schema_detail::kLeafKeyword, builder.get());
    builder.release();  // the parser owns it now
    auto guard = schema_detail::makeGuardConstraintBuilder();
    parser.addConstraintBuilder(schema_detail::kGuardKeyword, guard.get());
    guard.release();
    impl->schemas.parse(parser, impl->lowered);
  } catch (const SchemaError&) {
    throw;
  } catch (const std::exception& error) {
    throw SchemaError(std::string("Invalid schema: ") + error.what());
  }
  return std::shared_ptr<const CompiledSchema>(new CompiledSchema(std::move(impl)));
}

SchemaDialect CompiledSchema::dialect() const { return impl_->dialect; }

const json& CompiledSchema::document() const { return impl_->document; }

std::vector<SchemaIssue> CompiledSchema::validate(const json& value) const {
  return check(value, ValidationBudget{}).issues;
}

void CompiledSchema::applyDefaults(json& value) const {
  const ValidationBudget budget;
  ValidationMeter meter(budget);
  try {
    fillDefaults(impl_->lowered.document, impl_->lowered.document, value, 0);
  } catch (const ValidationMeter::Stopped&) {
    // Left half filled in: validating it within the same budget will say it is too costly.
  }
}

namespace {

std::string tooCostly(const ValidationBudget& budget) {
  const auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(budget.time).count();
  return "The value could not be checked against the schema within toold's validation budget (" +
         std::to_string(budget.steps) + " steps, " + std::to_string(millis) +
         " ms): this schema is too costly to validate for a value like this one";
}

}  // namespace

CompiledSchema::Checked CompiledSchema::decode(json& value, const ValidationBudget& budget) const {
  return run(impl_->hasDefaults ? &value : nullptr, value, budget);
}

CompiledSchema::Checked CompiledSchema::check(const json& value, const ValidationBudget& budget) const {
  return run(nullptr, value, budget);
}

CompiledSchema::Checked CompiledSchema::run(json* fillIn, const json& value, const ValidationBudget& budget) const {
  if (auto refused = refuseUncheckable(value, 0)) return {Checked::Status::Invalid, {*refused}};
  // Made only when valijson runs: its deque of errors allocated two blocks for every input the
  // acceptor takes at once (nearly all of them).
  std::optional<valijson::ValidationResults> results;
  try {
    ValidationMeter meter(budget);
    if (fillIn) fillDefaults(impl_->lowered.document, impl_->lowered.document, *fillIn, 0);
    if (impl_->acceptor && impl_->acceptor->accepts(value)) return {};
    results.emplace();
    if (validateAgainst(impl_->schemas.root(), NlohmannJsonAdapter(value), {"<root>"}, &*results)) return {};
  } catch (const ValidationMeter::Stopped& stopped) {
    if (stopped.why == ValidationMeter::Stop::Cancelled) return {Checked::Status::Cancelled, {}};
    // What reached the root's results before the stop is certain (valijson moves a branch's
    // issues there only once the branch has failed for good); with none, nothing is known.
    if (!results || results->numErrors() == 0) return {Checked::Status::OverBudget, {{"root", tooCostly(budget)}}};
    return {Checked::Status::OverBudget, collectIssues(*results, value)};
  } catch (const std::exception& error) {
    return {Checked::Status::Invalid, {{"root", std::string("The value could not be checked: ") + error.what()}}};
  }
  return {Checked::Status::Invalid, collectIssues(*results, value)};
}

}  // namespace toold::core
