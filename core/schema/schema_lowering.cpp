// Lowering a schema document to what valijson enforces faithfully; see schema_lowering.h.
//
// Positions are JSON pointers ("" is the root, "/properties/a"), shown to people as "#/properties/a".
// Rewrites keep every schema where it was, except the ones they move (a 2020-12 "$ref" beside
// other keywords, tuple items, dependentSchemas, allOf branches, keyed schemas); each move is
// recorded so that a "$ref" into a moved schema still finds it.
#include "core/schema/schema_lowering.h"

#include "core/schema/schema_limits.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <utility>

namespace toold::core::schema_detail {

namespace {

std::string escapeToken(const std::string& token) {
  std::string out;
  for (const char c : token) out += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
  return out;
}

/// The JSON pointer a local "$ref" names, in canonical form (tokens unescaped then escaped again,
/// %-escapes decoded, empty tokens skipped as valijson does); nullopt when it is not local.
/// `where` is the "$ref"'s position, as shown.
std::optional<std::string> localPointer(const std::string& ref, const std::string& where) {
  if (ref.empty() || ref.front() != '#' || (ref.size() > 1 && ref[1] != '/')) return std::nullopt;
  std::string pointer;
  std::size_t at = 1;
  while (at < ref.size()) {
    const std::size_t end = std::min(ref.find('/', at + 1), ref.size());
    std::string token = ref.substr(at + 1, end - at - 1);
    at = end;
    std::string decoded;
    for (std::size_t i = 0; i < token.size(); ++i) {
      if (token[i] == '~' && i + 1 < token.size() && (token[i + 1] == '0' || token[i + 1] == '1')) {
        decoded += token[++i] == '0' ? '~' : '/';
      } else if (token[i] == '%') {
        const bool hex = i + 2 < token.size() && std::isxdigit(static_cast<unsigned char>(token[i + 1])) &&
                         std::isxdigit(static_cast<unsigned char>(token[i + 2]));
        if (!hex)
          throw SchemaError("Invalid \"$ref\" at " + where + ": " + shortJson(ref) + " has a bad %-escape");
        decoded += static_cast<char>(std::stoi(token.substr(i + 1, 2), nullptr, 16));
        i += 2;
      } else {
        decoded += token[i];
      }
    }
    if (!decoded.empty()) pointer += "/" + escapeToken(decoded);
  }
  return pointer;
}

/// A canonical pointer as a "$ref" valijson reads back: it decodes %-escapes, so "%" is escaped.
std::string referenceTo(const std::string& pointer) {
  std::string out = "#";
  for (const char c : pointer) out += c == '%' ? "%25" : std::string(1, c);
  return out;
}

class SchemaLowering {
public:
  SchemaLowering(const json& original, SchemaDialect dialect) : original_(original), dialect_(dialect) {}

  LoweredSchema run() {
    out_.document = original_;
    walk(out_.document, "", kNoValue);
    if (!keyed_.empty()) {
      json& keyed = out_.document[kKeyedKeyword] = json::array();
      for (const std::unique_ptr<json>& schema : keyed_) keyed.push_back(std::move(*schema));
      out_.keyedCount = keyed_.size();
    }
    resolveReferences();
    refuseEndlessReferences();
    return std::move(out_);
  }

private:
  // What a `false` schema says, by where it stands.
  static constexpr const char* kNoValue = "No value is allowed here";
  static constexpr const char* kUnexpectedKey = "Unexpected key";
  static constexpr const char* kUnexpectedItem = "Unexpected item";

  /// A position as people know it, "#/properties/a": where they wrote it, for a keyed schema too
  /// (which moved from an earlier position, so this ends).
  std::string shown(std::string pointer) const {
    const std::string keyed = std::string("/") + kKeyedKeyword + "/";
    while (pointer.starts_with(keyed)) {
      const std::size_t end = std::min(pointer.find('/', keyed.size()), pointer.size());
      std::size_t index = 0;
      const auto [last, error] = std::from_chars(pointer.data() + keyed.size(), pointer.data() + end, index);
      if (error != std::errc() || last != pointer.data() + end || index >= keyedOrigins_.size()) break;
      pointer = keyedOrigins_[index] + pointer.substr(end);
    }
    return "#" + pointer;
  }

  struct Reference {
    std::string holder;   // the lowered position of the object holding "$ref"
    std::string pointer;  // canonical, into the original document
  };

  void walk(json& node, const std::string& at, const char* neverMessage) {
    schemaPointers_.insert(at);
    if (node.is_boolean()) {
      if (!node.get<bool>()) {
        auto never = std::make_unique<LeafAssertions>();
        never->never = true;
        never->neverMessage = neverMessage;
        node = json::object({{kLeafKeyword, add(std::move(never))}});
      }
      return;
    }
    if (!node.is_object())
      throw SchemaError("Invalid schema at " + shown(at) + ": expected an object or a boolean, got " +
                        node.type_name());
    refuseUnsupported(node, at);
    for (const char* text : {"title", "description"})
      if (node.contains(text) && !node[text].is_string()) throw invalidKeyword(text, shown(at), "a string");
    // valijson reads a string "id" as a draft-04 base URI, which would send local references elsewhere.
    if (const auto id = node.find("id"); id != node.end() && id->is_string()) node.erase(id);
    if (const auto ref = node.find("$ref"); ref != node.end()) {
      if (!ref->is_string()) throw invalidKeyword("$ref", shown(at), "a string");
      const std::string target = ref->get<std::string>();
      if (dialect_ == SchemaDialect::Draft07 || node.size() == 1) {
        references_.push_back({at, checkedReference(target, at)});
        // Draft-07 ignores the keywords beside "$ref", but the definitions kept there are referenced.
        walkMap(node, "definitions", at, kNoValue);
        walkMap(node, "$defs", at, kNoValue);
        return;
      }
      // 2020-12 applies "$ref" together with the keywords beside it, which valijson, like draft-07, would ignore.
      checkedReference(target, at);
      node.erase(ref);
      appendAllOf(node, at, json::object({{"$ref", target}}));
    }
    auto leaf = std::make_unique<LeafAssertions>();
    rewriteTuple(node, at);
    splitDependencies(node, at, *leaf);
    chainAllOf(node, at);  // after the rewrites above, which may add allOf entries
    moveKeyed(node, at, *leaf);
    walkMap(node, "properties", at, kUnexpectedKey);
    walkMap(node, "$defs", at, kNoValue);
    walkMap(node, "definitions", at, kNoValue);
    walkMap(node, "dependencies", at, kNoValue);
    for (const char* keyword : {"allOf", "anyOf", "oneOf"}) walkArray(node, keyword, at, kNoValue, true);
    if (node.contains("items") && node["items"].is_array())
      walkArray(node, "items", at, kUnexpectedItem, false);
    else
      walkOne(node, "items", at, kUnexpectedItem);
    walkOne(node, "additionalItems", at, kUnexpectedItem);
    walkOne(node, "additionalProperties", at, kUnexpectedKey);
    walkOne(node, "propertyNames", at, kUnexpectedKey);
    for (const char* keyword : {"contains", "not", "if", "then", "else"}) walkOne(node, keyword, at, kNoValue);
    takeLeafAssertions(node, shown(at), *leaf);
    leaf->keyNames = simpleKeyNames(node, at);
    node[kLeafKeyword] = add(std::move(leaf));
    addDepthGuard(node);
  }

  /// valijson recurses into a schema's children (its properties, items, branches, ...) before it
  /// reaches the leaf constraint, both when parsing and when validating, so the leaf cannot see
  /// how deep the recursion has gone before it is too late. "allOf" is the keyword valijson
  /// handles first; a last entry of it that holds only kGuardKeyword is reached before any other
  /// child, so the guard checks the stack on the way down. (allOf's own chain is bounded at
  /// compile time instead, see refuseEndlessReferences.) Nodes without children need none.
  void addDepthGuard(json& node) {
    static const char* const kChildren[] = {"properties", "items", "additionalItems", "additionalProperties",
                                            "propertyNames", "contains", "dependencies", "not", "anyOf",
                                            "oneOf", "if", "then", "else"};
    if (std::none_of(std::begin(kChildren), std::end(kChildren),
                     [&node](const char* keyword) { return node.contains(keyword); }) &&
        (!node.contains(kLeafKeyword) || !out_.assertions.at(node[kLeafKeyword].get<std::size_t>())->keyed))
      return;
    json& allOf = node.emplace("allOf", json::array()).first.value();
    allOf.push_back(json::object({{kGuardKeyword, 0}}));
  }

  void refuseUnsupported(const json& node, const std::string& at) const {
    static const std::pair<const char*, const char*> kRefused[] = {
        {"unevaluatedProperties", "list the allowed keys in \"properties\" and use \"additionalProperties\": false"},
        {"unevaluatedItems", "use \"items\" (after \"prefixItems\", \"items\": false ends the tuple)"},
        {"$dynamicRef", "use a local \"$ref\" into \"$defs\""},
        {"$dynamicAnchor", "use a local \"$ref\" into \"$defs\""},
        {"$recursiveRef", "use a local \"$ref\" into \"$defs\""},
        {"$recursiveAnchor", "use a local \"$ref\" into \"$defs\""},
        {"minContains", "use \"contains\" alone"},
        {"maxContains", "use \"contains\" alone"}};
    for (const auto& [keyword, instead] : kRefused)
      if (node.contains(keyword))
        throw SchemaUnsupported("Unsupported keyword \"" + std::string(keyword) + "\" at " + shown(at) +
                          ": it cannot be enforced; " + instead);
    if (dialect_ == SchemaDialect::Draft07)
      for (const char* keyword : {"prefixItems", "dependentRequired", "dependentSchemas"})
        if (node.contains(keyword))
          throw SchemaUnsupported("Unsupported keyword \"" + std::string(keyword) + "\" at " + shown(at) +
                            ": it is JSON Schema 2020-12, but this schema is draft-07 (its \"$schema\" says so, or it "
                            "has a top-level \"definitions\")");
    if (!at.empty() && node.contains("$id"))
      throw SchemaUnsupported("Unsupported keyword \"$id\" at " + shown(at) +
                        ": \"$id\" is only supported at the root, since below it would change what local "
                        "references mean");
  }

  /// Checks a "$ref" where it is written: local, and pointing at something in the document.
  std::string checkedReference(const std::string& ref, const std::string& at) const {
    const std::optional<std::string> pointer = localPointer(ref, shown(at));
    if (!pointer)
      throw SchemaUnsupported("Unsupported \"$ref\" at " + shown(at) + ": " + shortJson(ref) +
                        " is not a location in this document; only \"#\" and \"#/<JSON pointer>\" references are "
                        "supported");
    if (!nodeAt(original_, *pointer))
      throw SchemaError("Unresolved \"$ref\" at " + shown(at) + ": " + shortJson(ref) +
                        " points to nothing in this document");
    return *pointer;
  }

  /// Tuples: valijson checks the items after a tuple starting from how many tuple items passed,
  /// not from the tuple's length, so a failing tuple item would be checked against the rest
  /// schema too. The tuple keeps "additionalItems": true, and the rest schema moves to an allOf
  /// entry whose tuple is all `true`, which every item passes.
  void rewriteTuple(json& node, const std::string& at) {
    const bool prefixed = dialect_ == SchemaDialect::Draft2020_12 && node.contains("prefixItems");
    if (!prefixed) {
      const auto items = node.find("items");
      if (items == node.end() || !items->is_array() ||
          std::all_of(items->begin(), items->end(), [](const json& item) { return item == json(true); }))
        return;
    } else if (node.contains("additionalItems")) {
      throw SchemaError("Unsupported keyword \"additionalItems\" at " + shown(at) +
                        ": 2020-12 has no such keyword; beside \"prefixItems\", \"items\" holds the schema for the "
                        "other items");
    } else if (!node["prefixItems"].is_array()) {
      throw invalidKeyword("prefixItems", shown(at), "an array of schemas");
    } else if (node.contains("items") && node["items"].is_array()) {
      throw invalidKeyword("items", shown(at), "a schema for the items after \"prefixItems\"");
    }
    const std::string restKey = prefixed ? "items" : "additionalItems";
    std::optional<json> rest;
    if (const auto found = node.find(restKey); found != node.end()) {
      rest = std::move(*found);
      node.erase(found);
    }
    if (prefixed) {
      node["items"] = std::move(node["prefixItems"]);
      node.erase("prefixItems");
    }
    if (rest) {
      json carrier = json::object({{"items", json::array()}, {"additionalItems", std::move(*rest)}});
      for (std::size_t i = 0; i < node["items"].size(); ++i) carrier["items"].push_back(true);
      const std::size_t index = appendAllOf(node, at, std::move(carrier));
      renames_.emplace_back(at + "/" + restKey, at + "/allOf/" + std::to_string(index) + "/additionalItems");
      node["additionalItems"] = true;
    }
    if (prefixed) renames_.emplace_back(at + "/prefixItems", at + "/items");
  }

  /// valijson's allOf stops at the first failing branch, while a oneOf of one branch reports that
  /// branch's issues and lets the schema around it go on. So allOf [A, B, C] becomes
  /// allOf [{"allOf": [A], "oneOf": [{"allOf": [B], "oneOf": [C]}]}], and every branch is checked.
  void chainAllOf(json& node, const std::string& at) {
    const auto allOf = node.find("allOf");
    if (allOf == node.end() || !allOf->is_array() || allOf->size() < 2) return;
    json parts = std::move(*allOf);
    const std::size_t count = parts.size();
    json chain = std::move(parts[count - 1]);
    for (std::size_t i = count - 1; i-- > 0;)
      chain = json::object({{"allOf", json::array({std::move(parts[i])})}, {"oneOf", json::array({std::move(chain)})}});
    node["allOf"] = json::array({std::move(chain)});
    std::string link = at + "/allOf/0";
    for (std::size_t i = 0; i < count; ++i, link += "/oneOf/0")
      renames_.emplace_back(at + "/allOf/" + std::to_string(i), i + 1 == count ? link : link + "/allOf/0");
  }

  /// Required-when-present lists (dependentRequired, the array form of "dependencies") go to
  /// toold's own check, which names the trigger; dependentSchemas join draft-07 "dependencies".
  void splitDependencies(json& node, const std::string& at, LeafAssertions& leaf) {
    auto takeList = [&](const std::string& keyword, const std::string& key, const json& keys) {
      if (!isStringArray(keys))
        throw invalidKeyword(keyword, shown(at + "/" + keyword + "/" + escapeToken(key)), "an array of strings");
      leaf.dependentRequired.emplace_back(key, keys.get<std::vector<std::string>>());
    };
    if (const auto required = node.find("dependentRequired"); required != node.end()) {
      if (!required->is_object()) throw invalidKeyword("dependentRequired", shown(at), "an object");
      for (auto it = required->begin(); it != required->end(); ++it)
        takeList("dependentRequired", it.key(), it.value());
      node.erase(required);
    }
    if (const auto dependencies = node.find("dependencies"); dependencies != node.end()) {
      if (!dependencies->is_object()) throw invalidKeyword("dependencies", shown(at), "an object");
      for (auto it = dependencies->begin(); it != dependencies->end();) {
        if (!it->is_array()) {
          ++it;
          continue;
        }
        takeList("dependencies", it.key(), it.value());
        it = dependencies->erase(it);
      }
    }
    if (const auto schemas = node.find("dependentSchemas"); schemas != node.end()) {
      if (!schemas->is_object()) throw invalidKeyword("dependentSchemas", shown(at), "an object of schemas");
      json moved = std::move(*schemas);
      node.erase(schemas);
      json& dependencies = node.emplace("dependencies", json::object()).first.value();
      for (auto it = moved.begin(); it != moved.end(); ++it) {
        if (dependencies.contains(it.key()))
          throw SchemaError("Invalid schema at " + shown(at) +
                            ": both \"dependencies\" and \"dependentSchemas\" name " + shortJson(it.key()));
        dependencies[it.key()] = std::move(it.value());
      }
      renames_.emplace_back(at + "/dependentSchemas", at + "/dependencies");
    }
    if (const auto dependencies = node.find("dependencies"); dependencies != node.end() && dependencies->empty())
      node.erase(dependencies);
  }

  /// "patternProperties", and the "additionalProperties" beside them, are applied by toold, which
  /// matches the keys with PCRE2 (valijson would use std::regex, see schema_assertions.h). Their
  /// schemas move to the root's kKeyedKeyword array, where valijson parses them (toold validates
  /// values against them) but applies them to nothing itself.
  void moveKeyed(json& node, const std::string& at, LeafAssertions& leaf) {
    const auto patterns = node.find("patternProperties");
    if (patterns == node.end()) return;
    if (!patterns->is_object()) throw invalidKeyword("patternProperties", shown(at), "an object of schemas");
    KeyedSchemas keyed;
    if (const auto named = node.find("properties"); named != node.end() && named->is_object())
      for (auto it = named->begin(); it != named->end(); ++it) keyed.named.push_back(it.key());
    std::sort(keyed.named.begin(), keyed.named.end());  // nlohmann's order already; looked up by bisection
    for (auto it = patterns->begin(); it != patterns->end(); ++it) {
      Regex regex = compilePattern(it.key(), "patternProperties", shown(at));
      const std::size_t index = moveOut(it.value(), at + "/patternProperties/" + escapeToken(it.key()));
      keyed.patterns.push_back({std::move(regex), index});
    }
    node.erase(patterns);
    if (const auto additional = node.find("additionalProperties"); additional != node.end()) {
      keyed.additional = moveOut(*additional, at + "/additionalProperties");
      node.erase(additional);
    }
    leaf.keyed = std::move(keyed);
  }

  /// Moves a keyed schema out to its place in the kKeyedKeyword array, and walks it there.
  std::size_t moveOut(json& schema, const std::string& from) {
    const std::size_t index = keyed_.size();
    const std::string to = std::string("/") + kKeyedKeyword + "/" + std::to_string(index);
    renames_.emplace_back(from, to);
    keyedOrigins_.push_back(from);
    keyed_.push_back(std::make_unique<json>(std::move(schema)));
    walk(*keyed_.back(), to, kUnexpectedKey);
    return index;
  }

  /// A "propertyNames" made of leaf keywords only is checked by toold, which can then say which key
  /// is wrong and why; valijson reports no message at all for it.
  const LeafAssertions* simpleKeyNames(json& node, const std::string& at) {
    const auto names = node.find("propertyNames");
    if (names == node.end() || !names->is_object() || !names->contains(kLeafKeyword)) return nullptr;
    static const char* const kStructural[] = {"$ref", "allOf", "anyOf", "oneOf", "not", "if", "then", "else",
                                              "properties", "patternProperties", "additionalProperties", "items",
                                              "additionalItems", "contains", "propertyNames", "dependencies",
                                              "uniqueItems",
                                              // definitions inside it are addressed by pointers that
                                              // must keep pointing somewhere
                                              "$defs", "definitions"};
    for (const char* keyword : kStructural)
      if (names->contains(keyword)) return nullptr;
    const LeafAssertions* leaf = out_.assertions.at((*names)[kLeafKeyword].get<std::size_t>()).get();
    node.erase(names);
    schemaPointers_.erase(at + "/propertyNames");
    return leaf;
  }

  void walkOne(json& node, const char* keyword, const std::string& at, const char* neverMessage) {
    if (const auto child = node.find(keyword); child != node.end()) walk(*child, at + "/" + keyword, neverMessage);
  }

  void walkMap(json& node, const char* keyword, const std::string& at, const char* neverMessage) {
    const auto map = node.find(keyword);
    if (map == node.end()) return;
    if (!map->is_object()) throw invalidKeyword(keyword, shown(at), "an object of schemas");
    for (auto it = map->begin(); it != map->end(); ++it)
      walk(it.value(), at + "/" + keyword + "/" + escapeToken(it.key()), neverMessage);
  }

  void walkArray(json& node, const char* keyword, const std::string& at, const char* neverMessage, bool nonEmpty) {
    const auto array = node.find(keyword);
    if (array == node.end()) return;
    if (!array->is_array() || (nonEmpty && array->empty()))
      throw invalidKeyword(keyword, shown(at), nonEmpty ? "a non-empty array of schemas" : "an array of schemas");
    for (std::size_t i = 0; i < array->size(); ++i)
      walk((*array)[i], at + "/" + keyword + "/" + std::to_string(i), neverMessage);
  }

  std::size_t appendAllOf(json& node, const std::string& at, json entry) {
    json& allOf = node.emplace("allOf", json::array()).first.value();
    if (!allOf.is_array()) throw invalidKeyword("allOf", shown(at), "a non-empty array of schemas");
    allOf.push_back(std::move(entry));
    return allOf.size() - 1;
  }

  std::size_t add(std::unique_ptr<LeafAssertions> leaf) {
    out_.assertions.push_back(std::move(leaf));
    return out_.assertions.size() - 1;
  }

  /// Points every "$ref" at its target's lowered position, which must be a schema.
  void resolveReferences() {
    // The renames apply in the order they were made, each to what the earlier ones left. Indexed
    // by what they rename, so that a target looks up its own prefixes (at most one per level)
    // rather than scanning every rename: a schema with thousands of both was quadratic.
    std::unordered_map<std::string, std::vector<std::size_t>> byFrom;
    for (std::size_t i = 0; i < renames_.size(); ++i) byFrom[renames_[i].first].push_back(i);
    for (const Reference& reference : references_) {
      std::string target = reference.pointer;
      for (std::size_t next = 0;;) {
        std::size_t earliest = renames_.size();
        for (std::size_t cut = target.find('/', 1);; cut = target.find('/', cut + 1)) {
          const auto found = byFrom.find(target.substr(0, cut));
          if (found != byFrom.end()) {
            const auto at = std::lower_bound(found->second.begin(), found->second.end(), next);
            if (at != found->second.end()) earliest = std::min(earliest, *at);
          }
          if (cut == std::string::npos) break;
        }
        if (earliest == renames_.size()) break;
        const std::string& from = renames_[earliest].first;
        target = renames_[earliest].second + target.substr(from.size());
        next = earliest + 1;
      }
      if (!schemaPointers_.count(target))
        throw SchemaError("Unsupported \"$ref\" at " + shown(reference.holder) + ": " +
                          shortJson("#" + reference.pointer) +
                          " is not a schema (a subschema, or an entry of \"$defs\" or \"definitions\")");
      out_.document.at(json::json_pointer(reference.holder))["$ref"] = referenceTo(target);
      targets_[reference.holder] = target;
    }
  }

  /// A schema that reaches itself again through "$ref" without descending into a property or an
  /// item (say {"$defs": {"a": {"anyOf": [{"$ref": "#/$defs/a"}]}}}) would validate forever.
  void refuseEndlessReferences() const {
    std::map<std::string, bool> finished;  // false while on the current path
    // The longest chain of schemas applied to one value from here: validation recurses through
    // it with no guard on the way down (see addDepthGuard), so it is bounded here.
    std::map<std::string, std::size_t> chain;
    std::function<std::size_t(const std::string&)> visit = [&](const std::string& at) -> std::size_t {
      checkCompileStack();  // a chain of "$ref"s is as long as the schema makes it
      const auto [state, first] = finished.emplace(at, false);
      if (!first) {
        if (!state->second)
          throw SchemaError("Circular \"$ref\" through " + shown(at) +
                            ": it comes back to the same schema without descending into a property or an item, so "
                            "validation would never end");
        return chain[at];
      }
      std::size_t longest = 0;
      const auto follow = [&](const std::string& next) { longest = std::max(longest, visit(next)); };
      const json& node = out_.document.at(json::json_pointer(at));
      if (const auto target = targets_.find(at); target != targets_.end()) {
        follow(target->second);  // valijson looks at nothing else in a "$ref" object
      } else if (node.is_object()) {
        for (const char* keyword : {"allOf", "anyOf", "oneOf"})
          if (node.contains(keyword))
            for (std::size_t i = 0; i < node[keyword].size(); ++i)
              if (!node[keyword][i].contains(kGuardKeyword))
                follow(at + "/" + keyword + "/" + std::to_string(i));
        for (const char* keyword : {"not", "if", "then", "else"})
          if (node.contains(keyword)) follow(at + "/" + keyword);
        if (node.contains("dependencies"))
          for (auto it = node["dependencies"].begin(); it != node["dependencies"].end(); ++it)
            follow(at + "/dependencies/" + escapeToken(it.key()));
      }
      if (++longest > SchemaLimits::kMaxChain)
        throw SchemaError("The schemas applied to one value through \"$ref\", allOf, anyOf, oneOf, not, if or "
                          "dependencies from " + shown(at) + " chain more than " +
                          std::to_string(SchemaLimits::kMaxChain) + " deep; toold accepts at most " +
                          std::to_string(SchemaLimits::kMaxChain));
      finished[at] = true;
      chain[at] = longest;
      return longest;
    };
    for (const std::string& at : schemaPointers_) visit(at);
  }

  const json& original_;
  const SchemaDialect dialect_;
  LoweredSchema out_;
  std::set<std::string> schemaPointers_;                     // every schema position in the lowered document
  std::vector<std::pair<std::string, std::string>> renames_;  // moved schemas, in the order they moved
  std::vector<Reference> references_;
  std::map<std::string, std::string> targets_;  // a "$ref" holder's lowered position -> its target's
  // The keyed schemas, by index, until the walk is over; each apart so that it stays where it is
  // while walking it moves more.
  std::vector<std::unique_ptr<json>> keyed_;
  std::vector<std::string> keyedOrigins_;  // where each keyed schema was, by index
};

}  // namespace

LoweredSchema lowerSchema(const json& document, SchemaDialect dialect) {
  return SchemaLowering(document, dialect).run();
}

const json* nodeAt(const json& root, const std::string& pointer) {
  try {
    const json::json_pointer path(pointer);
    return root.contains(path) ? &root.at(path) : nullptr;
  } catch (const json::exception&) {
    return nullptr;
  }
}

}  // namespace toold::core::schema_detail
