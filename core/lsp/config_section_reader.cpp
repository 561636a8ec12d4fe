#include "core/lsp/config_section_reader.h"

#include "core/permission/config_file.h"

#include "core/base/environment_substitution.h"
#include "core/permission/permission_config.h"
#include "protocol/bounded_json.h"

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <sstream>
#include <system_error>

namespace toold::core {

namespace {

/// A key as one segment of a dotted path: bare when plain, quoted otherwise (`lsp."my server"`).
std::string segment(std::string_view key) {
  const bool plain = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
  return plain ? std::string(key) : SectionReader::quoted(key);
}

} // namespace

SectionReader::At SectionReader::At::member(const std::string& key) const {
  return {pointer / key, path.empty() ? segment(key) : path + "." + segment(key)};
}

SectionReader::At SectionReader::At::element(std::size_t index) const {
  return {pointer / index, path + "[" + std::to_string(index) + "]"};
}

std::string SectionReader::quoted(std::string_view text) {
  return Json(std::string(text)).dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string SectionReader::describe(const Json& value) {
  if (value.is_object()) return "an object";
  if (value.is_array()) return value.empty() ? "[]" : "an array";
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::optional<SectionReader::Json> SectionReader::section(std::string_view text, std::string_view key) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) return std::nullopt;
  auto parsed = protocol::parseBoundedOrdered(text);
  if (!parsed || !parsed.value.is_object()) return std::nullopt;
  const auto found = parsed.value.find(std::string(key));
  if (found == parsed.value.end()) return std::nullopt;
  return std::move(*found);
}

void SectionReader::fail(const At& at, const std::string& message) const {
  std::size_t line = 1;
  for (Pointer p = at.pointer;; p = p.parent_pointer()) {
    if (const auto found = lines_.line(p)) {
      line = *found;
      break;
    }
    if (p.empty()) break;
  }
  throw ConfigError(file_ + ":" + std::to_string(line) + ": " + message);
}

std::chrono::milliseconds SectionReader::milliseconds(const Json& value, const At& at, bool zeroAllowed) const {
  const bool whole = value.is_number_integer() || value.is_number_unsigned();
  if (!whole || value.get<long long>() < (zeroAllowed ? 0 : 1))
    fail(at, at.path + (zeroAllowed ? ": expected 0 or a positive number of milliseconds, got "
                                    : ": expected a positive number of milliseconds, got ") +
                 describe(value));
  return std::chrono::milliseconds(value.get<long long>());
}

bool SectionReader::boolean(const Json& value, const At& at) const {
  if (!value.is_boolean()) fail(at, at.path + ": expected true or false, got " + describe(value));
  return value.get<bool>();
}

std::vector<std::string> SectionReader::strings(const Json& value, const At& at, bool nonEmpty) const {
  if (!value.is_array() || (nonEmpty && value.empty()))
    fail(at, at.path + (nonEmpty ? ": expected a non-empty array of strings, got " : ": expected an array of strings, got ") +
                 describe(value));
  std::vector<std::string> result;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const At element = at.element(i);
    if (!value[i].is_string() || value[i].get<std::string>().empty())
      fail(element, element.path + ": expected a non-empty string, got " + describe(value[i]));
    result.push_back(substituteEnvironment(value[i].get<std::string>()));
  }
  return result;
}

std::vector<std::string> SectionReader::command(const Json& value, const At& at) const {
  if (!value.is_array() || value.empty())
    fail(at, at.path + ": expected the program and its arguments, a non-empty array of strings, got " + describe(value));
  std::vector<std::string> result;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const At element = at.element(i);
    if (!value[i].is_string()) fail(element, element.path + ": expected a string, got " + describe(value[i]));
    result.push_back(substituteEnvironment(value[i].get<std::string>()));
  }
  if (result.front().empty()) fail(at.element(0), at.path + "[0]: the program is empty");
  return result;
}

std::vector<std::string> SectionReader::extensions(const Json& value, const At& at) const {
  if (!value.is_array() || value.empty())
    fail(at, at.path + R"(: expected a non-empty array of extensions such as ".py", got )" + describe(value));
  std::vector<std::string> result;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const At element = at.element(i);
    const bool extension = value[i].is_string() && value[i].get<std::string>().size() > 1 &&
                           value[i].get<std::string>().front() == '.' &&
                           value[i].get<std::string>().find('/') == std::string::npos;
    if (!extension)
      fail(element, element.path + R"(: expected an extension with its dot, such as ".py", got )" + describe(value[i]));
    result.push_back(value[i].get<std::string>());
  }
  return result;
}

std::map<std::string, std::string> SectionReader::stringMap(const Json& value, const At& at) const {
  if (!value.is_object()) fail(at, at.path + ": expected an object of strings, got " + describe(value));
  std::map<std::string, std::string> result;
  for (const auto& [key, entry] : value.items()) {
    const At member = at.member(key);
    if (key.empty()) fail(member, at.path + ": empty name");
    if (!entry.is_string()) fail(member, member.path + ": expected a string, got " + describe(entry));
    result[key] = substituteEnvironment(entry.get<std::string>());
  }
  return result;
}

std::optional<std::pair<std::string, std::string>> readConfigText(const std::filesystem::path& directory,
                                                                  const std::optional<std::filesystem::path>& explicitFile) {
  if (explicitFile) return std::pair{readConfigFile(*explicitFile, explicitFile->string()), explicitFile->string()};
  const std::filesystem::path candidate = directory / kConfigFileName;
  std::error_code error;
  if (std::filesystem::symlink_status(candidate, error).type() == std::filesystem::file_type::not_found)
    return std::nullopt;
  const std::string name(kConfigFileName);
  return std::pair{readConfigFile(candidate, name), name};
}

} // namespace toold::core
