#include "core/lsp/formatter_config.h"

#include "core/lsp/config_section_reader.h"
#include "core/lsp/project_folders.h"

#include <algorithm>
#include <fstream>
#include <system_error>

namespace toold::core {

namespace fs = std::filesystem;

namespace {

using Json = SectionReader::Json;
using At = SectionReader::At;

constexpr std::string_view kFilePlaceholder = "$FILE";

FormatterConfig builtIn(std::string name, std::vector<std::string> command, std::vector<std::string> extensions,
                        FormatterCondition condition = FormatterCondition::None) {
  FormatterConfig formatter;
  formatter.name = std::move(name);
  formatter.command = std::move(command);
  formatter.extensions = std::move(extensions);
  formatter.builtIn = true;
  formatter.condition = condition;
  return formatter;
}

std::string builtInNames() {
  std::string names;
  for (const auto& formatter : builtInFormatters()) names += (names.empty() ? "" : ", ") + formatter.name;
  return names;
}

/// Lays the keys of `value` over `formatter`.
void readFormatter(const SectionReader& reader, const Json& value, const At& at, FormatterConfig& formatter) {
  if (!value.is_object()) reader.fail(at, at.path + ": expected a formatter object, got " + SectionReader::describe(value));
  for (const auto& [key, entry] : value.items()) {
    const At member = at.member(key);
    if (key == "command") {
      formatter.command = reader.command(entry, member);
      const bool placed = std::any_of(formatter.command.begin() + 1, formatter.command.end(),
                                      [](const std::string& argument) { return argument.find(kFilePlaceholder) != std::string::npos; });
      if (!placed) reader.fail(member, member.path + R"(: no argument holds "$FILE", where the file's path goes)");
    } else if (key == "extensions") {
      formatter.extensions = reader.extensions(entry, member);
    } else if (key == "environment") {
      formatter.environment = reader.stringMap(entry, member);
    } else if (key == "disabled") {
      formatter.disabled = reader.boolean(entry, member);
    } else {
      reader.fail(member, at.path + ": unknown key " + SectionReader::quoted(key) +
                              R"( (expected "command", "extensions", "environment" or "disabled"))" +
                              (key == "env" ? R"(; a formatter's environment is "environment", as in opencode)" : ""));
    }
  }
}

/// The start of a text file: a project's pyproject.toml is small, and a table header past its
/// first 256 KiB is not worth reading a generated giant for on every write.
std::string headOf(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::string text(256 * 1024, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(std::max<std::streamsize>(in.gcount(), 0)));
  return text;
}

bool present(const fs::path& path) {
  std::error_code error;
  return fs::exists(fs::symlink_status(path, error));
}

bool conditionHolds(FormatterCondition condition, const fs::path& file, const fs::path& workspace) {
  if (condition == FormatterCondition::None) return true;
  for (const auto& folder : foldersUpToWorkspace(file, workspace)) {
    switch (condition) {
    case FormatterCondition::None:
      return true;
    case FormatterCondition::ClangFormatFile:
      if (present(folder / ".clang-format") || present(folder / "_clang-format")) return true;
      break;
    case FormatterCondition::RuffConfigured:
      if (present(folder / "ruff.toml") || present(folder / ".ruff.toml")) return true;
      if (present(folder / "pyproject.toml") && headOf(folder / "pyproject.toml").find("[tool.ruff") != std::string::npos)
        return true;
      break;
    case FormatterCondition::BlackConfigured:
      if (present(folder / "pyproject.toml") && headOf(folder / "pyproject.toml").find("[tool.black]") != std::string::npos)
        return true;
      break;
    }
  }
  return false;
}

std::string withFile(std::string argument, const std::string& file) {
  for (std::size_t at = argument.find(kFilePlaceholder); at != std::string::npos;
       at = argument.find(kFilePlaceholder, at + file.size()))
    argument.replace(at, kFilePlaceholder.size(), file);
  return argument;
}

} // namespace

std::vector<FormatterConfig> builtInFormatters() {
  return {
      builtIn("clang-format", {"clang-format", "-i", "$FILE"},
              {".c", ".cc", ".cpp", ".cxx", ".c++", ".h", ".hh", ".hpp", ".hxx", ".h++", ".ipp", ".inl", ".m", ".mm"},
              FormatterCondition::ClangFormatFile),
      builtIn("gofmt", {"gofmt", "-w", "$FILE"}, {".go"}),
      builtIn("rustfmt", {"rustfmt", "$FILE"}, {".rs"}),
      builtIn("ruff", {"ruff", "format", "$FILE"}, {".py", ".pyi"}, FormatterCondition::RuffConfigured),
      builtIn("black", {"black", "-q", "$FILE"}, {".py", ".pyi"}, FormatterCondition::BlackConfigured),
      builtIn("prettier", {"node_modules/.bin/prettier", "--write", "$FILE"},
              {".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts", ".json", ".css", ".scss", ".less", ".md",
               ".html", ".vue", ".yaml", ".yml"}),
  };
}

FormatterSettings parseFormatterConfig(std::string_view text, const std::string& displayName) {
  FormatterSettings settings;
  const auto section = SectionReader::section(text, "formatter");
  if (!section) return settings;
  const SectionReader reader(text, displayName);
  const At at{SectionReader::Pointer("/formatter"), "formatter"};
  if (section->is_boolean()) {
    settings.enabled = section->get<bool>();
    return settings;
  }
  if (!section->is_object())
    reader.fail(at, "formatter: expected true, false or an object of formatters, got " + SectionReader::describe(*section));
  settings.enabled = true;
  std::map<std::string, FormatterConfig> declared;
  for (const auto& [name, value] : section->items()) {
    const At member = at.member(name);
    if (name.empty()) reader.fail(member, "formatter: empty formatter name");
    auto known = std::find_if(settings.formatters.begin(), settings.formatters.end(),
                              [&name](const FormatterConfig& formatter) { return formatter.name == name; });
    if (known != settings.formatters.end()) {
      readFormatter(reader, value, member, *known);
      continue;
    }
    FormatterConfig formatter;
    formatter.name = name;
    readFormatter(reader, value, member, formatter);
    if (formatter.command.empty() || formatter.extensions.empty())
      reader.fail(member, member.path + ": not a built-in formatter (" + builtInNames() + R"(), so it needs "command" and "extensions")");
    declared[name] = std::move(formatter);
  }
  std::vector<FormatterConfig> ordered;
  for (auto& [name, formatter] : declared) ordered.push_back(std::move(formatter));
  for (auto& formatter : settings.formatters) ordered.push_back(std::move(formatter));
  settings.formatters = std::move(ordered);
  return settings;
}

FormatterSettings loadFormatterConfig(const fs::path& directory, const std::optional<fs::path>& explicitFile) {
  const auto config = readConfigText(directory, explicitFile);
  if (!config) return {};
  return parseFormatterConfig(config->first, config->second);
}

std::optional<FormattingCommand>
formatterForFile(const FormatterSettings& settings, const fs::path& file, const fs::path& workspace,
                 const std::function<std::optional<std::string>(const std::string&)>& findProgram) {
  if (!settings.enabled) return std::nullopt;
  const fs::path absolute = (file.is_absolute() ? file : normalFolder(workspace) / file).lexically_normal();
  const std::string extension = absolute.extension().string();
  if (extension.empty()) return std::nullopt;
  for (const auto& formatter : settings.formatters) {
    if (formatter.disabled || formatter.command.empty()) continue;
    if (std::find(formatter.extensions.begin(), formatter.extensions.end(), extension) == formatter.extensions.end())
      continue;
    const std::string& named = formatter.command.front();
    const bool inWorkspace = named.find('/') != std::string::npos && !fs::path(named).is_absolute();
    const auto program = findProgram(inWorkspace ? (normalFolder(workspace) / named).lexically_normal().string() : named);
    if (!program || !conditionHolds(formatter.condition, absolute, workspace)) continue;
    FormattingCommand command{formatter.name, {*program}, formatter.environment};
    for (auto argument = formatter.command.begin() + 1; argument != formatter.command.end(); ++argument)
      command.argv.push_back(withFile(*argument, absolute.string()));
    return command;
  }
  return std::nullopt;
}

} // namespace toold::core
