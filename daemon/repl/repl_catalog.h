// The tools the REPL knows, learnt from the wire (a `snapshot` answer), never from toold's code:
// their names and descriptions for :tools, a readable signature for :describe, and the input
// schema that turns `key=value` words into the JSON input a call needs.
#pragma once

#include <nlohmann/json.hpp>

#include <mutex>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace toold::repl {

using nlohmann::json;

struct ToolInfo {
  std::string name;
  std::string description;
  json inputSchema;
};

/// An argument the line could not turn into input; `message` says which and why.
struct ArgumentError {
  std::string message;
};

class ToolCatalog {
public:
  /// Replaces the tools with a snapshot's `tools` array. Any thread.
  void setTools(const json& tools);
  /// Replaces the Code Mode paths with those a snapshot's `codemode` summary shows (none when it
  /// has no Code Mode). Any thread.
  void setCodemodePaths(const json& codemode);
  /// Whether `name` is called only from a Code Mode program: a path of the summary, not a tool.
  bool codemodeOnly(const std::string& name) const;
  std::size_t size() const;
  bool contains(const std::string& name) const;
  std::optional<ToolInfo> find(const std::string& name) const;
  std::vector<std::string> names() const;

  /// One line per tool: its name and the first line of its description.
  std::string listText() const;
  /// `name(a: string, b?: integer = 1)`, the description, then one line per parameter.
  std::string describeText(const std::string& name) const;

  /// The tool's parameter names, in the schema's order (required ones first).
  std::vector<std::string> parameterNames(const std::string& name) const;
  /// True when the parameter names a file or folder (completion offers paths for it).
  bool isPathParameter(const std::string& tool, const std::string& parameter) const;

private:
  mutable std::mutex mutex_;
  std::vector<ToolInfo> tools_;
  std::vector<std::string> codemodePaths_;
};

/// The words after a tool's name: `key=value` (quoted with "..." or '...' when they hold
/// blanks), `key=@file` for a file's content, and optionally a trailing JSON object the pairs
/// are laid over. Values are converted by the property's type in `inputSchema`: numbers,
/// booleans, JSON for objects and arrays, strings as typed.
std::variant<json, ArgumentError> buildInput(const json& inputSchema, std::string_view words);

/// Splits `words` as a shell would for quoting only (no expansion): the pieces, and whatever
/// follows an unquoted `{` at the start of a word (the trailing JSON), kept verbatim.
struct SplitWords {
  std::vector<std::string> words;
  std::string trailingJson;
};
std::variant<SplitWords, ArgumentError> splitWords(std::string_view text);

} // namespace toold::repl
