#include "core/base/environment_substitution.h"

#include <cstdlib>

namespace toold::core {

std::string substituteEnvironment(std::string_view text) {
  std::string result;
  std::size_t at = 0;
  while (true) {
    const std::size_t start = text.find("{env:", at);
    const std::size_t end = start == std::string_view::npos ? start : text.find('}', start);
    if (end == std::string_view::npos) break;
    result.append(text.substr(at, start - at));
    const std::string name(text.substr(start + 5, end - start - 5));
    if (const char* value = std::getenv(name.c_str())) result += value;
    at = end + 1;
  }
  result.append(text.substr(at));
  return result;
}

} // namespace toold::core
