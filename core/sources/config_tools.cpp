#include "core/sources/config_tools.h"

#include "core/permission/config_file.h"

#include "core/base/json_line_map.h"
#include "core/permission/permission_config.h"
#include "core/schema/json_schema.h"
#include "core/schema/schema_issue.h"
#include "core/tools/tool_name.h"
#include "protocol/bounded_json.h"
#include "protocol/params_error.h"

#include <algorithm>
#include <array>
#include <fstream>
#include <sstream>
#include <system_error>

namespace toold::core {

namespace {

using Pointer = nlohmann::json::json_pointer;

// The keys of a declaration and of its handler: `register`'s, which is lenient with clients; a
// config is checked strictly, since a misspelt key there would silently change nothing.
constexpr std::array<std::string_view, 9> kSpecKeys = {"description", "inputSchema", "outputSchema", "codemode", "permission",
                                                       "mutates",     "title",       "annotations",  "handler"};
constexpr std::array<std::string_view, 4> kHandlerKeys = {"type", "argv", "cwd", "timeoutMs"};

template <std::size_t N>
std::string expectedList(const std::array<std::string_view, N>& keys) {
  std::string list;
  for (std::size_t i = 0; i < N; ++i)
    list += std::string(i == 0 ? "" : i + 1 == N ? " or " : ", ") + "\"" + std::string(keys[i]) + "\"";
  return list;
}

/// One file's declarations: where each key sits, for messages `file:line: key.path: what`.
class DeclarationReader {
public:
  DeclarationReader(std::string_view text, std::string displayName) : lines_(text), file_(std::move(displayName)) {}

  /// The declaration at `pointer`, whose keys are shown as `path.<key>` (`path` empty: bare keys).
  protocol::ToolSpec read(const std::string& name, const nlohmann::json& value, const Pointer& pointer,
                          const std::string& path) {
    const std::string self = path.empty() ? name : path;
    if (value.is_boolean())
      fail(pointer, self + ": " + (value.get<bool>() ? "true" : "false") +
                        R"( is opencode's switch for a tool; toold's "tools" declares command tools. )"
                        R"(To keep a tool from the model, deny it: {"permission": {")" +
                        name + R"(": "deny"}})");
    if (!value.is_object())
      fail(pointer, self + R"(: expected a tool declaration (an object with "description" and "handler"))");
    checkKeys(value, pointer, path, kSpecKeys);
    if (const auto handler = value.find("handler"); handler != value.end() && handler->is_object())
      checkKeys(*handler, pointer / "handler", member(path, "handler"), kHandlerKeys);
    protocol::ToolSpec spec;
    try {
      spec = protocol::parseToolSpec(value, path);
    } catch (const protocol::ParamsError& e) {
      throw ConfigError(location(pointerOfMessage(e.what(), pointer, path)) + ": " + e.what());
    }
    if (spec.handler.type != protocol::HandlerSpec::Type::Command)
      fail(pointer / "handler", member(path, "handler") +
                                    R"(: a tool declared in config must be a command ({"type": "command", "argv": [...]}))");
    try {
      effectiveToolName(name, "");
    } catch (const RegistrationError& e) {
      fail(pointer, self + ": " + e.what());
    }
    if (value.contains("inputSchema")) checkSchema(spec.inputSchema, pointer, path, "inputSchema");
    if (spec.outputSchema) checkSchema(*spec.outputSchema, pointer, path, "outputSchema");
    return spec;
  }

  std::size_t line(const Pointer& pointer) const {
    for (Pointer at = pointer;; at = at.parent_pointer()) {
      if (const auto found = lines_.line(at)) return *found;
      if (at.empty()) return 1;
    }
  }

  [[noreturn]] void fail(const Pointer& pointer, const std::string& message) const {
    throw ConfigError(location(pointer) + ": " + message);
  }

private:
  static std::string member(const std::string& path, std::string_view key) {
    return path.empty() ? std::string(key) : path + "." + std::string(key);
  }

  std::string location(const Pointer& pointer) const { return file_ + ":" + std::to_string(line(pointer)); }

  template <std::size_t N>
  void checkKeys(const nlohmann::json& object, const Pointer& pointer, const std::string& path,
                 const std::array<std::string_view, N>& known) {
    for (const auto& [key, entry] : object.items()) {
      if (std::find(known.begin(), known.end(), key) != known.end()) continue;
      std::string hint;
      if (key == "timeout") hint = R"(; the handler's time limit is "timeoutMs", in milliseconds)";
      fail(pointer / key, member(path, key) + ": unknown key (expected " + expectedList(known) + ")" + hint);
    }
  }

  /// A schema the registry would refuse, refused here with its line; one toold cannot enforce
  /// passes (the tool is registered unchecked, with a note, as `register` does).
  void checkSchema(const nlohmann::json& schema, const Pointer& pointer, const std::string& path, const char* key) {
    try {
      CompiledSchema::compile(schema);
    } catch (const SchemaUnsupported&) {
    } catch (const SchemaError& e) {
      fail(pointer / key, member(path, key) + ": invalid JSON Schema: " + e.what());
    }
  }

  /// The deepest key of `path` that a ParamsError message starts with ("tools.x.handler.argv: …"),
  /// as a pointer below `pointer`, so the message names the line of the key it is about.
  Pointer pointerOfMessage(std::string_view message, const Pointer& pointer, const std::string& path) const {
    const std::string prefix = path.empty() ? "" : path + ".";
    const std::size_t colon = message.find(": ");
    if (colon == std::string_view::npos || !message.substr(0, colon).starts_with(prefix)) return pointer;
    std::string_view rest = message.substr(prefix.size(), colon - prefix.size());
    Pointer found = pointer;
    while (!rest.empty()) {
      const std::size_t dot = rest.find('.');
      const std::string key(rest.substr(0, dot));
      if (!lines_.line(found / key)) break;
      found /= key;
      rest = dot == std::string_view::npos ? std::string_view() : rest.substr(dot + 1);
    }
    return found;
  }

  JsonLineMap lines_;
  std::string file_;
};

} // namespace

std::vector<std::pair<std::string, protocol::ToolSpec>> parseConfigTools(std::string_view text, const std::string& displayName) {
  std::vector<std::pair<std::string, protocol::ToolSpec>> tools;
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) return tools;
  auto parsed = protocol::parseBounded(text);
  if (!parsed) throw ConfigError(displayName + ": cannot be parsed as JSON");
  if (!parsed.value.is_object()) return tools; // the permission reader says why
  const auto section = parsed.value.find("tools");
  if (section == parsed.value.end()) return tools;
  DeclarationReader reader(text, displayName);
  const Pointer sectionPointer("/tools");
  if (!section->is_object()) reader.fail(sectionPointer, "tools: expected an object of tool declarations");
  // Member order as written: the line map knows it, nlohmann's object does not.
  std::vector<std::pair<std::size_t, std::string>> names;
  for (const auto& [name, value] : section->items()) names.emplace_back(reader.line(sectionPointer / name), name);
  std::sort(names.begin(), names.end());
  for (const auto& [line, name] : names)
    tools.emplace_back(name, reader.read(name, (*section)[name], sectionPointer / name, "tools." + name));
  return tools;
}

protocol::RegisterParams loadConfigTools(const std::filesystem::path& directory,
                                         const std::optional<std::filesystem::path>& explicitFile) {
  protocol::RegisterParams params;
  params.scope = std::string(kConfigToolScope);
  if (explicitFile) {
    params.tools = parseConfigTools(readConfigFile(*explicitFile, explicitFile->string()), explicitFile->string());
  } else {
    const auto file = directory / kConfigFileName;
    std::error_code error;
    if (std::filesystem::symlink_status(file, error).type() != std::filesystem::file_type::not_found)
      params.tools = parseConfigTools(readConfigFile(file, std::string(kConfigFileName)), std::string(kConfigFileName));
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
    const std::string text = readConfigFile(file, display);
    auto parsed = protocol::parseBounded(text);
    if (!parsed) throw jsonSyntaxError(text, display);
    DeclarationReader reader(text, display);
    if (std::any_of(params.tools.begin(), params.tools.end(), [&](const auto& tool) { return tool.first == name; }))
      reader.fail(Pointer(), "a tool \"" + name + "\" is declared in toold.json already");
    params.tools.emplace_back(name, reader.read(name, parsed.value, Pointer(), ""));
  }
  return params;
}

} // namespace toold::core
