// Bounding a tool's structured output (MCP's `structuredContent`) to the same budget as its text:
// a host that gives the model the structured value rather than the text (opencode's MCP client
// does, when there is one) must not get past the budget the text was cut to. The value keeps its
// shape, so that it still matches the tool's output schema: only its long strings are cut, each
// to a head and a tail around a note, as the text is.
#pragma once

#include "core/output/output_bounding.h"

#include <cstddef>
#include <string_view>

#include <nlohmann/json.hpp>

namespace toold::core {

struct BoundedStructure {
  nlohmann::json value; ///< the cut copy when `cut`; null otherwise (the value stays as it was)
  bool cut = false;  ///< some string of it was cut
  bool fits = true;  ///< its JSON text fits the budget's bytes (false: cutting strings could not do it)
};

/// Nothing cut when `value`'s JSON text (compact, as toold writes it) has at most limits.maxBytes
/// bytes, measured without writing it (the text is not built, the value not copied). Otherwise a
/// copy in which the longest strings are cut, all to one width, the smallest that is enough: each
/// becomes boundedPreview(string, marker, {limits.maxLines, width}) — its head, a blank line,
/// `marker`, a blank line and its tail, on UTF-8 character boundaries. Keys, numbers, booleans,
/// arrays' lengths and short strings stay. `fits` is false when no width brings the text within
/// the budget (many keys or items, or many short strings).
BoundedStructure boundStructure(const nlohmann::json& value, const BoundingLimits& limits, std::string_view marker);

/// The note a cut string carries: "... cut to fit the output budget; the call's full text is
/// saved to <path> ..." when the call's text was saved, else "... cut to fit the output budget ...".
std::string structureCutMarker(const std::string& savedPath);

} // namespace toold::core
