#include "core/files/tab_fields.h"

namespace toold::core {

std::string escapeField(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '%') out += "%25";
    else if (c == '\t') out += "%09";
    else if (c == '\n') out += "%0A";
    else out += c;
  }
  return out;
}

std::optional<std::string> unescapeField(std::string_view field) {
  std::string out;
  out.reserve(field.size());
  for (std::size_t i = 0; i < field.size(); ++i) {
    if (field[i] != '%') {
      out += field[i];
      continue;
    }
    if (i + 2 >= field.size()) return std::nullopt;
    const auto code = field.substr(i + 1, 2);
    if (code == "25") out += '%';
    else if (code == "09") out += '\t';
    else if (code == "0A") out += '\n';
    else return std::nullopt;
    i += 2;
  }
  return out;
}

std::vector<std::string_view> splitTabFields(std::string_view line) {
  std::vector<std::string_view> fields;
  for (std::size_t start = 0;;) {
    const auto tab = line.find('\t', start);
    fields.push_back(line.substr(start, tab == std::string_view::npos ? std::string_view::npos : tab - start));
    if (tab == std::string_view::npos) return fields;
    start = tab + 1;
  }
}

} // namespace toold::core
