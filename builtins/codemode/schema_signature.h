// Code Mode signatures: a tool's JSON Schemas rendered as the TypeScript-like types the model
// reads in the catalog and in search results —
//
//   tools.orders.lookup(input: {
//     /** The order number */
//     id: string,
//     verbose?: boolean,
//   }): Promise<string | null>
//
// One field per line, two spaces per depth, descriptions and constraints as JSDoc above the field.
// string/number/integer/boolean/null, Array<T>, object literals with `?` for optional keys and
// bare or JSON-quoted keys, `[key: string]: T` for additionalProperties, const/enum as literal
// unions, anyOf/oneOf as unions, allOf as `&`, local $refs resolved; a recursive or unresolvable
// $ref, or nesting past 8, is `unknown`.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace toold::codemode {

/// The type of `schema`; `root` resolves local $refs ("#/$defs/X"), `depth` is the indentation.
std::string renderSchemaType(const nlohmann::json& schema, const nlohmann::json& root, int depth = 0);

/// `tools.<path>(input: <T>): Promise<<O>>`, or `tools.<path>(): …` when the input takes no
/// properties. Without an output schema the result is `string | null` (the text the tool returns).
std::string renderSignature(const std::string& pathExpression, const nlohmann::json& inputSchema,
                            const std::optional<nlohmann::json>& outputSchema);

} // namespace toold::codemode
