// Where a Code Mode tool sits in the program's `tools` tree: `<namespace>.<normalized name>`,
// the namespace's dots nesting it. A path is written in programs and catalogs as a path
// expression: `tools` followed, per segment, by `.seg` when the segment is an identifier, else by
// `["seg"]` (`tools.context7["resolve-library-id"]`).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace toold::codemode {

using ToolPath = std::vector<std::string>;

/// The path of a tool registered under `ns` (empty: none) with the normalized name `name`.
ToolPath toolPath(std::string_view ns, std::string_view name);
/// `segments` joined with dots: the canonical key ("github.list_issues").
std::string dottedPath(const ToolPath& segments);
/// The path expression: tools.github.list_issues, tools["2d_get_scene"].
std::string pathExpression(const ToolPath& segments);
/// Whether `segment` can follow a dot: ^[A-Za-z_$][A-Za-z0-9_$]*$.
bool isIdentifierSegment(std::string_view segment);
/// The `tools` tree of `paths` as JSON for the program's bootstrap: a node is
/// `[callable (0 or 1), [[segment, node], …]]`, children in the order their paths first appear.
std::string toolTreeJson(const std::vector<ToolPath>& paths);
/// Reads a path expression or a dotted path (an optional leading `tools.`), as a model would write
/// it in a query; empty when it is not one.
ToolPath parsePathExpression(std::string_view text);

} // namespace toold::codemode
