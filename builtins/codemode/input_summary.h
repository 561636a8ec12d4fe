// What a Code Mode program's progress list and result metadata show of each inner call's input.
// The list goes to the client with every progress update and again in the result: a program that
// passed 8 × 20 MB to a tool once made toold repeat those inputs in every update (120 MB written to
// the client, pings held for 18 s behind them). An input is shown whole while it is small; a large
// one by a bounded stand-in that keeps its shape: the same keys, strings cut with their size said.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>

namespace toold::codemode {

/// An input whose JSON is at most this many bytes is shown whole.
inline constexpr std::size_t kInputShownBytes = 1024;

/// The size of `value` written as compact JSON, counted without writing it and given up once past
/// `limit` (then some number above `limit`). Escapes in strings are not counted: a measure for
/// bounds, not an exact length.
std::size_t jsonSizeUpTo(const nlohmann::json& value, std::size_t limit);

/// `input` when it is small; otherwise a stand-in of about kInputShownBytes at most: strings over
/// 120 bytes cut at a UTF-8 boundary and ended with "… (N bytes)", arrays past 8 items ended with
/// "… (N more items)", objects past 16 keys ended with a "…" key, and values past depth 6 or past
/// the stand-in's budget shown as "…".
nlohmann::json inputSummary(const nlohmann::json& input);

} // namespace toold::codemode
