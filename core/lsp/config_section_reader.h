// Reading one section of toold.json apart from the permission reader, with the same errors: the
// file, the line and the dotted key (`toold.json:4: lsp.clangd.command: expected …`). The text is
// parsed again here; the permission reader, which reads the same file first, has already refused
// one that is not a JSON object or gives a key twice, so this reader leaves those to it.
#pragma once

#include "core/base/json_line_map.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace toold::core {

class SectionReader {
public:
  using Json = nlohmann::ordered_json;
  using Pointer = nlohmann::json::json_pointer;

  /// Where a value sits: its pointer (for its line) and its dotted key path (for the message).
  struct At {
    Pointer pointer;
    std::string path;
    At member(const std::string& key) const;
    At element(std::size_t index) const;
  };

  SectionReader(std::string_view text, std::string displayName) : lines_(text), file_(std::move(displayName)) {}

  /// The value of top-level `key` when the text is a JSON object holding it; nullopt otherwise.
  static std::optional<Json> section(std::string_view text, std::string_view key);

  /// `text` as a JSON string literal, for messages.
  static std::string quoted(std::string_view text);
  /// A value as a message shows what was found instead: scalars as written, containers by kind.
  static std::string describe(const Json& value);

  /// Throws ConfigError `<file>:<line of at, or of its nearest parent>: <message>`.
  [[noreturn]] void fail(const At& at, const std::string& message) const;

  /// A whole number of milliseconds, above zero, or also zero when `zeroAllowed`.
  std::chrono::milliseconds milliseconds(const Json& value, const At& at, bool zeroAllowed) const;
  bool boolean(const Json& value, const At& at) const;
  /// An array of strings, none empty, `{env:NAME}` substituted; `nonEmpty`: at least one.
  std::vector<std::string> strings(const Json& value, const At& at, bool nonEmpty) const;
  /// A program and its arguments: a non-empty array of strings whose first is not empty.
  std::vector<std::string> command(const Json& value, const At& at) const;
  /// File extensions with their dot (".py"): a non-empty array.
  std::vector<std::string> extensions(const Json& value, const At& at) const;
  /// An object of strings (an environment), `{env:NAME}` substituted in the values.
  std::map<std::string, std::string> stringMap(const Json& value, const At& at) const;

private:
  JsonLineMap lines_;
  std::string file_;
};

/// The text of the file loadPermissionConfig reads (`explicitFile`, else `<directory>/toold.json`
/// when present) and the name messages give it; nullopt when there is none. Throws ConfigError
/// when it cannot be read.
std::optional<std::pair<std::string, std::string>> readConfigText(const std::filesystem::path& directory,
                                                                  const std::optional<std::filesystem::path>& explicitFile);

} // namespace toold::core
