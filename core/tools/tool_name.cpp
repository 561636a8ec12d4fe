#include "core/tools/tool_name.h"

namespace toold::core {

namespace {

bool isNameChar(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

std::string quoted(std::string_view s) { return "\"" + std::string(s) + "\""; }

// Effective names hold ASCII only (normalizeToolName), so ASCII folding is exact.
bool equalsIgnoringCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  auto lower = [](char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; };
  for (std::size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

} // namespace

std::string normalizeToolName(std::string_view authored) {
  std::string name;
  name.reserve(authored.size());
  for (std::size_t i = 0; i < authored.size(); ++i) {
    const char c = authored[i];
    if (isNameChar(c)) {
      name.push_back(c);
      continue;
    }
    name.push_back('_');
    // One `_` per character, not per byte: skip the continuation bytes of a UTF-8 sequence.
    while (i + 1 < authored.size() && (static_cast<unsigned char>(authored[i + 1]) & 0xC0) == 0x80) ++i;
  }
  return name;
}

void validateNamespace(std::string_view ns) {
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = ns.find('.', start);
    const std::string_view segment = ns.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (segment.empty()) throw RegistrationError("Invalid tool namespace: " + quoted(ns) + " (an empty segment)");
    for (char c : segment)
      if (!isNameChar(c))
        throw RegistrationError("Invalid tool namespace: " + quoted(ns) +
                                " (segments may hold only letters, digits, _ and -)");
    if (dot == std::string_view::npos) return;
    start = dot + 1;
  }
}

std::string effectiveToolName(std::string_view authored, std::string_view ns) {
  std::string name = normalizeToolName(authored);
  if (name.empty()) throw RegistrationError("Invalid tool name: the name is empty");
  if (!ns.empty()) {
    validateNamespace(ns);
    std::string prefix(ns);
    for (char& c : prefix)
      if (c == '.') c = '_';
    name = prefix + "_" + name;
  }
  if (name.size() > kMaxToolNameLength)
    throw RegistrationError("Invalid tool name: " + quoted(name) + " is " + std::to_string(name.size()) +
                            " characters; the limit is " + std::to_string(kMaxToolNameLength));
  // Calls find a tool by its name case-insensitively when no exact match exists (call repair), so
  // `EXECUTE` would answer a model that calls `execute`: the reservation folds case too.
  if (equalsIgnoringCase(name, kReservedToolName))
    throw RegistrationError("Tool name " + quoted(name) + " is reserved for Code Mode (in any case)");
  return name;
}

} // namespace toold::core
