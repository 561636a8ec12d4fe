// The "format" values toold checks (the others are annotations): RFC 3339 dates and times, by
// hand, since they are a few fixed shapes and a calendar rule.
#pragma once

#include <string_view>

namespace toold::core::schema_detail {

bool isDate(std::string_view text);     ///< full-date: 2024-02-29 (leap years counted)
bool isTime(std::string_view text);     ///< full-time: 16:52:45Z, 16:52:45.25+02:00
bool isDateTime(std::string_view text); ///< date-time: 2024-07-18T16:52:45Z

} // namespace toold::core::schema_detail
