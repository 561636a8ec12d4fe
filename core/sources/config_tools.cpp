#include "core/sources/config_tools.h"

#include "core/base/json_line_map.h"
#include "core/permission/permission_config.h"
#include "protocol/bounded_json.h"
#include "protocol/params_error.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <system_error>

namespace toold::core {

namespace {

std::string readText(const std::filesystem::path& path, const std::string& displayName) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(displayName + ": cannot read: " + std::generic_category().message(errno));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// One spec, checked as `register` checks it, and a command.
protocol::ToolSpec readSpec(const nlohmann::json& value, const std::string& path, const std::string& where) {
  protocol::ToolSpec spec;
  try {
    spec = protocol::parseToolSpec(value, path);
  } catch (const protocol::ParamsError& e) {
    throw ConfigError(where + ": " + e.what());
  }
  if (spec.handler.type != protocol::HandlerSpec::Type::Command)
    throw ConfigError(where + ": " + path + R"(.handler: a tool declared in config must be a command ({"type": "command", "argv": [...]}))");
  return spec;
}

} // namespace

std::vector<std::pair<std::string, protocol::ToolSpec>> parseConfigTools(std::string_view text, const std::string& displayName) {
  std::vector<std::pair<std::string, protocol::ToolSpec>> tools;
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) return tools;
  auto parsed = protocol::parseBounded(text);
  if (!parsed) throw ConfigError(displayName + ": cannot be parsed as JSON");
  if (!parsed.value.is_object()) return tools; // the permission reader says why
  const auto section = parsed.value.find("tools");
  if (section == parsed.value.end()) return tools;
  const JsonLineMap lines(text);
  const auto lineOf = [&](const nlohmann::json::json_pointer& pointer) {
    return displayName + ":" + std::to_string(lines.line(pointer).value_or(1));
  };
  if (!section->is_object()) throw ConfigError(lineOf(nlohmann::json::json_pointer("/tools")) + ": tools: expected an object of tools");
  // Member order as written: the line map knows it, nlohmann's object does not.
  std::vector<std::pair<std::size_t, std::string>> names;
  for (const auto& [name, value] : section->items())
    names.emplace_back(lines.line(nlohmann::json::json_pointer("/tools") / name).value_or(0), name);
  std::sort(names.begin(), names.end());
  for (const auto& [line, name] : names)
    tools.emplace_back(name, readSpec((*section)[name], "tools." + name, displayName + ":" + std::to_string(line)));
  return tools;
}

protocol::RegisterParams loadConfigTools(const std::filesystem::path& directory,
                                         const std::optional<std::filesystem::path>& explicitFile) {
  protocol::RegisterParams params;
  params.scope = std::string(kConfigToolScope);
  if (explicitFile) {
    params.tools = parseConfigTools(readText(*explicitFile, explicitFile->string()), explicitFile->string());
  } else {
    const auto file = directory / kConfigFileName;
    std::error_code error;
    if (std::filesystem::symlink_status(file, error).type() != std::filesystem::file_type::not_found)
      params.tools = parseConfigTools(readText(file, std::string(kConfigFileName)), std::string(kConfigFileName));
  }
  const auto folder = directory / ".toold" / "tools";
  std::error_code error;
  if (!std::filesystem::is_directory(folder, error)) return params;
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(folder, error))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    const std::string name = file.stem().string();
    const std::string display = ".toold/tools/" + file.filename().string();
    const std::string text = readText(file, display);
    auto parsed = protocol::parseBounded(text);
    if (!parsed) throw ConfigError(display + ": cannot be parsed as JSON");
    if (std::any_of(params.tools.begin(), params.tools.end(), [&](const auto& tool) { return tool.first == name; }))
      throw ConfigError(display + ": a tool \"" + name + "\" is declared in toold.json already");
    params.tools.emplace_back(name, readSpec(parsed.value, name, display + ":1"));
  }
  return params;
}

} // namespace toold::core
