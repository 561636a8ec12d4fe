// A quick "valid" for the input shape nearly every tool has: an object of named scalar members.
// valijson walks such a value through its generic visitor (a dozen allocations and about 13,000
// instructions for a read's three members, as much as the read's own line formatting); this
// checks the same schema in a few hundred. It only ever says "valid for certain": any value it
// does not accept goes on to valijson, which finds the issues and words them, so what a model is
// told about a bad input does not change.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace toold::core::schema_detail {

using nlohmann::json;

class FlatObjectAcceptor {
public:
  /// The acceptor for `document` when every keyword in it is one this class checks exactly: at
  /// the root "type": "object", "properties", "required", "additionalProperties" as a boolean;
  /// in each property "type" (a name or a list of names among string, integer, number, boolean,
  /// null), "enum" of strings, and the numeric bounds minimum, maximum, exclusiveMinimum,
  /// exclusiveMaximum; annotations (title, description, default, ...) anywhere. Anything else
  /// (a $ref, a pattern, a nested object, a format) leaves the schema to valijson alone.
  static std::optional<FlatObjectAcceptor> compile(const json& document);

  /// True only when `value` is valid against the schema; false when it may not be.
  bool accepts(const json& value) const;

private:
  struct Property {
    std::string name;
    unsigned types = 0; ///< a bit per allowed type (TypeBit); 0 when "type" is absent
    std::vector<std::string> allowed; ///< "enum" of strings; empty when absent
    bool hasEnum = false;
    std::optional<json> minimum, maximum, exclusiveMinimum, exclusiveMaximum;
  };

  bool memberAccepted(const Property& property, const json& value) const;

  std::vector<Property> properties_; ///< sorted by name, as a json object's keys are
  std::vector<std::string> required_;
  bool closed_ = false; ///< "additionalProperties": false
};

} // namespace toold::core::schema_detail
