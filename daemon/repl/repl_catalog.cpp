// Schemas are read only as far as a person typing needs: `properties`, `required`, `type`,
// `default` and `description`. Anything richer (anyOf, $ref) leaves a value as JSON-or-string,
// and toold's own validation has the last word.
#include "daemon/repl/repl_catalog.h"

#include "daemon/repl/repl_render.h"
#include "protocol/bounded_json.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

namespace toold::repl {
namespace {

std::string firstLine(const std::string& text) {
  const auto end = text.find('\n');
  return end == std::string::npos ? text : text.substr(0, end);
}

const json& properties(const json& schema) {
  static const json none = json::object();
  if (!schema.is_object()) return none;
  auto it = schema.find("properties");
  return it != schema.end() && it->is_object() ? *it : none;
}

bool isRequired(const json& schema, const std::string& key) {
  if (!schema.is_object() || !schema.contains("required") || !schema["required"].is_array()) return false;
  const auto& required = schema["required"];
  return std::find(required.begin(), required.end(), json(key)) != required.end();
}

/// The property's type as a word: "string", "integer", "string|null", or "" when unstated.
std::string typeWord(const json& property) {
  if (!property.is_object()) return "";
  auto it = property.find("type");
  if (it == property.end()) {
    if (property.contains("enum")) return "enum";
    return "";
  }
  if (it->is_string()) return it->get<std::string>();
  std::string joined;
  if (it->is_array())
    for (const auto& t : *it)
      if (t.is_string()) joined += (joined.empty() ? "" : "|") + t.get<std::string>();
  return joined;
}

bool hasType(const json& property, std::string_view type) {
  const std::string word = typeWord(property);
  std::string_view rest = word;
  while (!rest.empty()) {
    const auto bar = rest.find('|');
    if (rest.substr(0, bar) == type) return true;
    if (bar == std::string_view::npos) break;
    rest.remove_prefix(bar + 1);
  }
  return false;
}

std::vector<std::string> orderedKeys(const json& schema) {
  std::vector<std::string> required, optional;
  for (const auto& [key, _] : properties(schema).items()) (isRequired(schema, key) ? required : optional).push_back(key);
  required.insert(required.end(), optional.begin(), optional.end());
  return required;
}

std::optional<json> parseJson(std::string_view text) {
  auto parsed = protocol::parseBounded(text);
  if (!parsed) return std::nullopt;
  return std::move(parsed.value);
}

/// Converts one typed value by the property's schema.
std::variant<json, ArgumentError> convert(const std::string& key, const json& property, const std::string& text) {
  const auto fail = [&](const std::string& what) {
    return ArgumentError{key + " expects " + what + ", not '" + text + "'"};
  };
  if (hasType(property, "string") || typeWord(property) == "enum") {
    if (typeWord(property) == "enum" && property["enum"].is_array() && !property["enum"].empty() &&
        !property["enum"][0].is_string()) {
      if (auto value = parseJson(text)) return *value;
    }
    return json(text);
  }
  if (hasType(property, "integer") || hasType(property, "number")) {
    auto value = parseJson(text);
    if (value && (value->is_number() || (value->is_null() && hasType(property, "null")))) return *value;
    return fail(hasType(property, "integer") ? "an integer" : "a number");
  }
  if (hasType(property, "boolean")) {
    if (text == "true" || text == "yes" || text == "on" || text == "1") return json(true);
    if (text == "false" || text == "no" || text == "off" || text == "0") return json(false);
    return fail("true or false");
  }
  if (hasType(property, "object") || hasType(property, "array")) {
    auto value = parseJson(text);
    if (!value) return fail(std::string("JSON (") + (hasType(property, "object") ? "an object" : "an array") + ")");
    return *value;
  }
  // No type stated: JSON when it reads as JSON, else the text itself.
  if (auto value = parseJson(text)) return *value;
  return json(text);
}

} // namespace

void ToolCatalog::setTools(const json& tools) {
  std::vector<ToolInfo> parsed;
  if (tools.is_array())
    for (const auto& tool : tools) {
      if (!tool.is_object() || !tool.contains("name") || !tool["name"].is_string()) continue;
      ToolInfo info{tool["name"].get<std::string>(), "", tool.value("inputSchema", json::object())};
      if (tool.contains("description") && tool["description"].is_string()) info.description = tool["description"];
      parsed.push_back(std::move(info));
    }
  std::lock_guard lock(mutex_);
  tools_ = std::move(parsed);
}

void ToolCatalog::setCodemodePaths(const json& codemode) {
  std::vector<std::string> paths;
  const json* namespaces = nullptr;
  if (codemode.is_object() && codemode.contains("summary") && codemode["summary"].is_object() &&
      codemode["summary"].contains("namespaces") && codemode["summary"]["namespaces"].is_array())
    namespaces = &codemode["summary"]["namespaces"];
  if (namespaces)
    for (const auto& space : *namespaces) {
      if (!space.is_object() || !space.contains("entries") || !space["entries"].is_array()) continue;
      for (const auto& entry : space["entries"])
        if (entry.is_object() && entry.contains("path") && entry["path"].is_string()) paths.push_back(entry["path"]);
    }
  std::lock_guard lock(mutex_);
  codemodePaths_ = std::move(paths);
}

bool ToolCatalog::codemodeOnly(const std::string& name) const {
  std::lock_guard lock(mutex_);
  if (std::find(codemodePaths_.begin(), codemodePaths_.end(), name) == codemodePaths_.end()) return false;
  return std::none_of(tools_.begin(), tools_.end(), [&](const ToolInfo& tool) { return tool.name == name; });
}

std::size_t ToolCatalog::size() const {
  std::lock_guard lock(mutex_);
  return tools_.size();
}

bool ToolCatalog::contains(const std::string& name) const { return find(name).has_value(); }

std::optional<ToolInfo> ToolCatalog::find(const std::string& name) const {
  std::lock_guard lock(mutex_);
  for (const auto& tool : tools_)
    if (tool.name == name) return tool;
  return std::nullopt;
}

std::vector<std::string> ToolCatalog::names() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> names;
  for (const auto& tool : tools_) names.push_back(tool.name);
  return names;
}

std::string ToolCatalog::listText() const {
  std::lock_guard lock(mutex_);
  if (tools_.empty()) return "(no tools in the snapshot)\n";
  std::size_t width = 0;
  for (const auto& tool : tools_) width = std::max(width, tool.name.size());
  std::string text;
  for (const auto& tool : tools_) {
    std::string line = firstSentence(tool.description);
    constexpr std::size_t kMaxDescription = 100;
    if (line.size() > kMaxDescription) line = line.substr(0, kMaxDescription - 3) + "...";
    text += "  " + tool.name + std::string(width - tool.name.size() + 2, ' ') + line + "\n";
  }
  return text;
}

std::string ToolCatalog::describeText(const std::string& name) const {
  auto tool = find(name);
  if (!tool) return "";
  const json& schema = tool->inputSchema;
  std::string signature = tool->name + "(";
  const auto keys = orderedKeys(schema);
  std::vector<std::pair<std::string, std::string>> columns; // name, type
  bool first = true;
  for (const auto& key : keys) {
    const json& property = properties(schema)[key];
    const bool required = isRequired(schema, key);
    std::string type = typeWord(property);
    if (type == "enum") {
      type.clear();
      for (const auto& v : property["enum"]) type += (type.empty() ? "" : "|") + v.dump();
    }
    if (type.empty()) type = "any";
    signature += (first ? "" : ", ") + key + (required ? "" : "?") + ": " + type;
    if (property.is_object() && property.contains("default")) signature += " = " + property["default"].dump();
    first = false;
    columns.emplace_back(key, type);
  }
  std::size_t nameWidth = 0, typeWidth = 0;
  for (const auto& [key, type] : columns) {
    nameWidth = std::max(nameWidth, key.size());
    typeWidth = std::max(typeWidth, type.size());
  }
  std::string rows;
  for (const auto& [key, type] : columns) {
    const json& property = properties(schema)[key];
    const std::string description = property.is_object() ? property.value("description", std::string()) : std::string();
    std::string row = "  " + key + std::string(nameWidth - key.size() + 2, ' ') + type +
                      std::string(typeWidth - type.size() + 2, ' ') + (isRequired(schema, key) ? "required  " : "          ") +
                      firstLine(description);
    row.erase(row.find_last_not_of(' ') + 1);
    rows += row + "\n";
  }
  signature += ")\n";
  std::string text = signature;
  if (!tool->description.empty()) {
    // The whole description can run to pages (bash's does): its first paragraph is enough here.
    std::string summary = tool->description.substr(0, tool->description.find("\n\n"));
    std::istringstream lines(summary);
    std::string line;
    while (std::getline(lines, line)) text += "  " + line + "\n";
  }
  if (!rows.empty()) text += "Parameters:\n" + rows;
  return text;
}

std::vector<std::string> ToolCatalog::parameterNames(const std::string& name) const {
  auto tool = find(name);
  return tool ? orderedKeys(tool->inputSchema) : std::vector<std::string>{};
}

bool ToolCatalog::isPathParameter(const std::string& toolName, const std::string& parameter) const {
  auto tool = find(toolName);
  if (!tool) return false;
  const json& property = properties(tool->inputSchema).value(parameter, json());
  if (!hasType(property, "string")) return false;
  std::string lower;
  for (char c : parameter) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower.find("path") != std::string::npos || lower.find("file") != std::string::npos ||
         lower == "directory" || lower == "dir" || lower == "cwd" || lower == "workdir";
}

namespace {

/// The end of a JSON object or array starting at `i` (just past its closing bracket), honouring
/// strings; npos when it is not closed.
std::size_t jsonEnd(std::string_view text, std::size_t i) {
  int depth = 0;
  bool inString = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (inString) {
      if (c == '\\') ++i;
      else if (c == '"') inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      if (--depth == 0) return i + 1;
    }
  }
  return std::string_view::npos;
}

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\n'; }

} // namespace

std::variant<SplitWords, ArgumentError> splitWords(std::string_view text) {
  SplitWords split;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && isBlank(text[i])) ++i;
    if (i >= text.size()) break;
    if (text[i] == '{') {
      split.trailingJson = std::string(text.substr(i));
      break;
    }
    std::string word;
    // Quotes open only at the start of the word or of its value, so JSON inside a value
    // (obj={"x":1}) is kept as typed; a value that starts with { or [ runs to its closing bracket.
    bool valueStart = true;
    while (i < text.size() && !isBlank(text[i])) {
      const char c = text[i];
      if (valueStart && (c == '{' || c == '[') && !word.empty()) {
        const auto end = jsonEnd(text, i);
        if (end == std::string_view::npos) return ArgumentError{"a " + std::string(1, c) + " is not closed"};
        word += text.substr(i, end - i);
        i = end;
        valueStart = false;
        continue;
      }
      if (valueStart && c == '"') {
        ++i;
        while (i < text.size() && text[i] != '"') {
          if (text[i] == '\\' && i + 1 < text.size()) {
            const char next = text[++i];
            word += next == 'n' ? '\n' : next == 't' ? '\t' : next;
          } else {
            word += text[i];
          }
          ++i;
        }
        if (i >= text.size()) return ArgumentError{"a \" is not closed"};
        ++i;
        valueStart = false;
        continue;
      }
      if (valueStart && c == '\'') {
        const auto end = text.find('\'', i + 1);
        if (end == std::string_view::npos) return ArgumentError{"a ' is not closed"};
        word += text.substr(i + 1, end - i - 1);
        i = end + 1;
        valueStart = false;
        continue;
      }
      word += c;
      ++i;
      valueStart = c == '='  && word.find('=') == word.size() - 1;
    }
    split.words.push_back(std::move(word));
  }
  return split;
}

namespace {

// People type `read a.txt` or `bash echo hi` first: when no word is a pair, the hint shows the pair
// they meant, for the tool's first required parameter — the whole line quoted when it is more
// than one word, since a value with blanks must be.
std::string bareWordsHint(const json& inputSchema, const std::vector<std::string>& words, std::string_view text) {
  for (const auto& word : words)
    if (word.find('=') != std::string::npos) return {};
  const auto keys = orderedKeys(inputSchema);
  if (keys.empty() || !isRequired(inputSchema, keys.front())) return {};
  std::string value(text);
  while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.pop_back();
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.erase(0, 1);
  const bool quoted = words.size() > 1 || value.find_first_of(" \t") != std::string::npos;
  if (quoted && value.find('\'') != std::string::npos) return {};
  return "did you mean " + keys.front() + "=" + (quoted ? "'" + value + "'" : value) + "? ";
}

} // namespace

std::variant<json, ArgumentError> buildInput(const json& inputSchema, std::string_view text) {
  auto split = splitWords(text);
  if (auto* error = std::get_if<ArgumentError>(&split)) return *error;
  auto& words = std::get<SplitWords>(split);
  json input = json::object();
  if (!words.trailingJson.empty()) {
    auto parsed = protocol::parseBounded(words.trailingJson);
    if (!parsed) return ArgumentError{"the trailing JSON is not valid (" + parsed.refusal->message + ")"};
    if (!parsed.value.is_object()) return ArgumentError{"the trailing JSON must be an object"};
    input = std::move(parsed.value);
  }
  for (const auto& word : words.words) {
    const auto eq = word.find('=');
    if (eq == std::string::npos || eq == 0)
      return ArgumentError{"'" + word + "' is not key=value (" + bareWordsHint(inputSchema, words.words, text) +
                           "see :describe for the parameters)"};
    const std::string key = word.substr(0, eq);
    std::string value = word.substr(eq + 1);
    if (value.starts_with("@") && value.size() > 1) {
      std::ifstream file(value.substr(1), std::ios::binary);
      if (!file) return ArgumentError{key + ": cannot read the file " + value.substr(1)};
      std::ostringstream content;
      content << file.rdbuf();
      value = content.str();
    } else if (value.starts_with("\\@")) {
      value.erase(0, 1); // `key=\@text` is the text `@text`
    }
    const json& schemaProperties = properties(inputSchema);
    if (!schemaProperties.empty() && !schemaProperties.contains(key)) {
      std::string known;
      for (const auto& name : orderedKeys(inputSchema)) known += (known.empty() ? "" : ", ") + name;
      return ArgumentError{"the tool has no parameter " + key + " (it takes: " + known + ")"};
    }
    auto converted = convert(key, schemaProperties.value(key, json::object()), value);
    if (auto* error = std::get_if<ArgumentError>(&converted)) return *error;
    input[key] = std::move(std::get<json>(converted));
  }
  return input;
}

} // namespace toold::repl
