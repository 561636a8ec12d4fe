#include "core/schema/schema_formats.h"

#include <cstddef>

namespace toold::core::schema_detail {

namespace {

bool digitsAt(std::string_view text, std::size_t at, std::size_t count, int& out) {
  if (at + count > text.size()) return false;
  out = 0;
  for (std::size_t i = at; i < at + count; ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
    out = out * 10 + (text[i] - '0');
  }
  return true;
}

} // namespace

bool isDate(std::string_view text) {
  int year = 0, month = 0, day = 0;
  if (text.size() != 10 || !digitsAt(text, 0, 4, year) || text[4] != '-' || !digitsAt(text, 5, 2, month) ||
      text[7] != '-' || !digitsAt(text, 8, 2, day) || month < 1 || month > 12 || day < 1)
    return false;
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return day <= kDays[month - 1] + (month == 2 && leap ? 1 : 0);
}

bool isTime(std::string_view text) {
  int hour = 0, minute = 0, second = 0;
  if (!digitsAt(text, 0, 2, hour) || text.size() < 9 || text[2] != ':' || !digitsAt(text, 3, 2, minute) ||
      text[5] != ':' || !digitsAt(text, 6, 2, second) || hour > 23 || minute > 59 || second > 60)
    return false;
  std::size_t at = 8;
  if (text[at] == '.') {
    const std::size_t start = ++at;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9') ++at;
    if (at == start) return false;
  }
  if (at < text.size() && (text[at] == 'Z' || text[at] == 'z')) return at + 1 == text.size();
  int offsetHour = 0, offsetMinute = 0;
  return at + 6 == text.size() && (text[at] == '+' || text[at] == '-') && digitsAt(text, at + 1, 2, offsetHour) &&
         text[at + 3] == ':' && digitsAt(text, at + 4, 2, offsetMinute) && offsetHour <= 23 && offsetMinute <= 59;
}

bool isDateTime(std::string_view text) {
  return text.size() > 11 && (text[10] == 'T' || text[10] == 't') && isDate(text.substr(0, 10)) &&
         isTime(text.substr(11));
}

} // namespace toold::core::schema_detail
