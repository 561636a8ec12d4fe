// Hashing JSON values as JSON Schema compares them, for a uniqueItems check in linear time.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>

namespace toold::core::schema_detail {

/// A hash under which the values JSON Schema calls equal hash alike: a number by its value (1 and
/// 1.0 alike; two integers only when they are the same integer, even past 2^53 where a double
/// would merge them), a string by its bytes, arrays in order, objects by keys and values. Charges
/// the running validation's meter (core/schema/schema_budget.h) for what it reads.
std::size_t hashOf(const nlohmann::json& value);

} // namespace toold::core::schema_detail
