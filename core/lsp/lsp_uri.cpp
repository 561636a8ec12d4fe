#include "core/lsp/lsp_uri.h"

#include <cstddef>

namespace toold::core {

namespace {

int hexValue(char digit) {
  if (digit >= '0' && digit <= '9') return digit - '0';
  if (digit >= 'a' && digit <= 'f') return digit - 'a' + 10;
  if (digit >= 'A' && digit <= 'F') return digit - 'A' + 10;
  return -1;
}

bool startsWithNoCase(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    char c = text[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != prefix[i]) return false;
  }
  return true;
}

bool keptAsIs(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
         c == '_' || c == '~' || c == '/';
}

} // namespace

std::optional<std::filesystem::path> pathFromFileUri(std::string_view uri) {
  if (!startsWithNoCase(uri, "file:")) return std::nullopt;
  std::string_view rest = uri.substr(5);
  if (auto end = rest.find_first_of("?#"); end != std::string_view::npos) rest = rest.substr(0, end);
  if (rest.substr(0, 2) == "//") {
    rest.remove_prefix(2);
    auto slash = rest.find('/');
    std::string_view authority = rest.substr(0, slash);
    // Another host's file (a UNC path on Windows) is not one toold can open.
    if (!authority.empty() && !(authority.size() == 9 && startsWithNoCase(authority, "localhost")))
      return std::nullopt;
    if (slash == std::string_view::npos) return std::nullopt;
    rest = rest.substr(slash);
  }
  if (rest.empty() || rest.front() != '/') return std::nullopt;
  std::string decoded;
  decoded.reserve(rest.size());
  for (std::size_t i = 0; i < rest.size(); ++i) {
    if (rest[i] == '%' && i + 2 < rest.size() && hexValue(rest[i + 1]) >= 0 && hexValue(rest[i + 2]) >= 0) {
      decoded.push_back(static_cast<char>(hexValue(rest[i + 1]) * 16 + hexValue(rest[i + 2])));
      i += 2;
    } else {
      decoded.push_back(rest[i]);
    }
  }
  if (decoded.find('\0') != std::string::npos) return std::nullopt;
  return std::filesystem::path(decoded);
}

std::string fileUriFromPath(const std::filesystem::path& path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string uri = "file://";
  for (char c : path.generic_string()) {
    auto byte = static_cast<unsigned char>(c);
    if (keptAsIs(byte)) {
      uri.push_back(c);
    } else {
      uri.push_back('%');
      uri.push_back(kHex[byte >> 4]);
      uri.push_back(kHex[byte & 0xF]);
    }
  }
  return uri;
}

} // namespace toold::core
