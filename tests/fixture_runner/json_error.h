// nlohmann's parse errors without their "[json.exception.parse_error.101] " prefix: the rest
// says where and why, which is what a fixture author needs.
#pragma once

#include <exception>
#include <string>

namespace toold::fixture {

inline std::string jsonErrorText(const std::exception& e) {
  std::string what = e.what();
  if (auto end = what.find("] "); what.starts_with("[json.exception") && end != std::string::npos)
    what.erase(0, end + 2);
  return what;
}

} // namespace toold::fixture
