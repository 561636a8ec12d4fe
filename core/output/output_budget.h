// The arithmetic of fitting a tool's answer into its budget: a tool that bounds its own output
// (read's pages, grep's matches, bash's head and tail) keeps room for everything the host receives
// besides its variable part — the wrapper, the footer, a first line saying the answer was cut —
// so the whole text, not only its body, stays within the limits the client's face sets.
#pragma once

#include "core/output/output_bounding.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace toold::core {

/// What is left of `budget` for a tool's variable text once `frame` and `joinLines` more lines are
/// counted: `frame` is every other piece of the answer put together as it will be sent (wrapper,
/// footer, first line, with their separators), `joinLines` what the joins with the variable text
/// add. Zero in a dimension the frame alone fills.
BoundingLimits roomLeft(const BoundingLimits& budget, std::string_view frame, std::size_t joinLines = 0);

/// The number of decimal digits of `value` (1 for 0).
std::size_t decimalDigits(std::uint64_t value);

/// A run of `digits` nines: a stand-in for any number of at most that many digits, for reserving
/// the room of a text whose numbers are known only later.
std::string widestNumber(std::size_t digits);

/// A byte budget as the model is told it: "50 KB" for a whole number of KiB (opencode's wording of
/// 51200), else "10000 bytes".
std::string budgetSize(std::size_t bytes);

/// The budget of a call made outside any face (a tool run directly, a test): toold's defaults.
inline constexpr BoundingLimits kDefaultBudget{};

} // namespace toold::core
