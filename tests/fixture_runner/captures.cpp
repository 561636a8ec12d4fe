// Reference scanning and substitution.
#include "captures.h"

#include <stdexcept>

namespace toold::fixture {
namespace {

bool isNameStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool isNameChar(char c) { return isNameStart(c) || (c >= '0' && c <= '9'); }

/// Calls `onText` for literal runs and `onReference` for each `${NAME}` of `text`, in order.
/// A `${` that does not start a well-formed reference is literal text.
template <typename Text, typename Reference> void scan(std::string_view text, Text onText, Reference onReference) {
  std::size_t literalStart = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t open = text.find("${", i);
    if (open == std::string_view::npos) break;
    const std::size_t close = text.find('}', open + 2);
    if (close == std::string_view::npos) break;
    const std::string_view name = text.substr(open + 2, close - open - 2);
    if (!isCaptureName(name)) {
      i = open + 2;
      continue;
    }
    onText(text.substr(literalStart, open - literalStart));
    onReference(name);
    i = literalStart = close + 1;
  }
  onText(text.substr(literalStart));
}

const json& lookUp(std::string_view name, const Captures& captures) {
  auto it = captures.find(name);
  if (it == captures.end()) {
    throw std::runtime_error("${" + std::string(name) +
                             "} is not captured (no earlier \"$capture:" + std::string(name) + "\" matched)");
  }
  return it->second;
}

void collect(const json& value, std::set<std::string>& names) {
  if (value.is_string()) {
    auto more = referencedCaptures(std::string_view(value.get_ref<const std::string&>()));
    names.insert(more.begin(), more.end());
  } else if (value.is_structured()) {
    for (const auto& element : value) collect(element, names);
  }
}

} // namespace

bool isCaptureName(std::string_view name) {
  if (name.empty() || !isNameStart(name.front())) return false;
  for (char c : name)
    if (!isNameChar(c)) return false;
  return true;
}

std::optional<std::string> wholeReference(std::string_view text) {
  if (text.size() < 4 || !text.starts_with("${") || !text.ends_with("}")) return std::nullopt;
  const std::string_view name = text.substr(2, text.size() - 3);
  if (!isCaptureName(name)) return std::nullopt;
  return std::string(name);
}

std::string captureText(const json& value) {
  if (value.is_string()) return value.get<std::string>();
  return value.dump();
}

std::string interpolate(std::string_view text, const Captures& captures) {
  std::string out;
  scan(
      text, [&](std::string_view literal) { out.append(literal); },
      [&](std::string_view name) { out += captureText(lookUp(name, captures)); });
  return out;
}

std::string interpolateKnown(std::string_view text, const Captures& captures) {
  std::string out;
  scan(
      text, [&](std::string_view literal) { out.append(literal); },
      [&](std::string_view name) {
        auto it = captures.find(name);
        out += it == captures.end() ? "${" + std::string(name) + "}" : captureText(it->second);
      });
  return out;
}

json substituteCaptures(const json& value, const Captures& captures) {
  if (value.is_string()) {
    const auto& text = value.get_ref<const std::string&>();
    if (auto name = wholeReference(text)) return lookUp(*name, captures);
    return interpolate(text, captures);
  }
  if (value.is_object()) {
    json out = json::object();
    for (const auto& [key, element] : value.items()) out[key] = substituteCaptures(element, captures);
    return out;
  }
  if (value.is_array()) {
    json out = json::array();
    for (const auto& element : value) out.push_back(substituteCaptures(element, captures));
    return out;
  }
  return value;
}

std::set<std::string> referencedCaptures(const json& value) {
  std::set<std::string> names;
  collect(value, names);
  return names;
}

std::set<std::string> referencedCaptures(std::string_view text) {
  std::set<std::string> names;
  scan(
      text, [](std::string_view) {}, [&](std::string_view name) { names.emplace(name); });
  return names;
}

} // namespace toold::fixture
