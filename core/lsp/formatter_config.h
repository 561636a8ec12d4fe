// The formatters toold may run on a file it wrote: the `formatter` section of toold.json, in
// opencode's shape but opt-in — toold formats nothing unless the section says so:
//
//   "formatter": false                       (the default, as without the section)
//   "formatter": true                        (the built-ins that are installed and configured)
//   "formatter": {"prettier": {"disabled": true},            (a built-in, overridden)
//                 "mix": {"command": ["mix", "format", "$FILE"], "extensions": [".ex", ".exs"],
//                         "environment": {"MIX_ENV": "dev"}}}  (a new one; the built-ins stay on)
//
// `$FILE` in a command is the file's absolute path (some argument must hold it); `{env:NAME}` is
// that variable. Every built-in has a condition, so that nothing surprising happens to a project
// that did not ask for it: clang-format only under a `.clang-format`, ruff and black only where the
// project's configuration names them, prettier only as the project's own node_modules install.
// Keys are checked strictly; an error names the file, the line and the key.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toold::core {

/// What, besides its program being installed, a built-in formatter waits for; looked for from the
/// file's folder up to the workspace.
enum class FormatterCondition {
  None,
  ClangFormatFile, ///< a `.clang-format` or `_clang-format`
  RuffConfigured,  ///< a `ruff.toml` or `.ruff.toml`, or a pyproject.toml with a `[tool.ruff…]` table
  BlackConfigured, ///< a pyproject.toml with a `[tool.black]` table
};

struct FormatterConfig {
  std::string name;
  std::vector<std::string> command; ///< program and arguments, "$FILE" among them; a relative program
                                    ///< with a '/' (node_modules/.bin/prettier) is the workspace's
  std::vector<std::string> extensions; ///< with the dot: ".go"; compared case-sensitively
  std::map<std::string, std::string> environment;
  bool disabled = false;
  bool builtIn = false;
  FormatterCondition condition = FormatterCondition::None; ///< built-ins' only; kept by an override
  bool operator==(const FormatterConfig&) const = default;
};

/// The built-ins, in the order they are tried: clang-format, gofmt, rustfmt, ruff, black, prettier.
std::vector<FormatterConfig> builtInFormatters();

struct FormatterSettings {
  bool enabled = false; ///< `"formatter": true` or an object
  /// The declared formatters by name (so they win over a built-in for the same extension), then
  /// the built-ins with overrides applied: the order formatterForFile tries them in.
  std::vector<FormatterConfig> formatters = builtInFormatters();
  bool operator==(const FormatterSettings&) const = default;
};

/// A formatter's command for one file, ready to run.
struct FormattingCommand {
  std::string name;
  std::vector<std::string> argv; ///< the program as found, then the arguments with $FILE substituted
  std::map<std::string, std::string> environment; ///< laid over toold's
  bool operator==(const FormattingCommand&) const = default;
};

/// Reads the `formatter` section of configuration text; the defaults (off) without one. Throws
/// ConfigError (`toold.json:2: formatter.mix.command: no argument holds "$FILE" …`).
FormatterSettings parseFormatterConfig(std::string_view text, const std::string& displayName);

/// The same file loadPermissionConfig reads; the defaults without one. Throws ConfigError.
FormatterSettings loadFormatterConfig(const std::filesystem::path& directory,
                                      const std::optional<std::filesystem::path>& explicitFile);

/// The command to run for `file` (absolute, or relative to `workspace`): the first formatter of
/// `settings` that is not disabled, has the file's extension, whose program `findProgram` finds
/// and whose condition holds, with $FILE substituted; nullopt when there is none or `settings` is
/// not enabled.
std::optional<FormattingCommand>
formatterForFile(const FormatterSettings& settings, const std::filesystem::path& file, const std::filesystem::path& workspace,
                 const std::function<std::optional<std::string>(const std::string&)>& findProgram);

} // namespace toold::core
