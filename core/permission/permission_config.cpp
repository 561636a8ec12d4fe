#include "core/permission/permission_config.h"

#include "core/permission/config_file.h"

#include "core/base/json_line_map.h"
#include "protocol/bounded_json.h"

#include <nlohmann/json.hpp>

#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <system_error>
#include <utility>
#include <vector>

namespace toold::core {

namespace {

// Ordered: the rules must come out in the order of the file, since the last match decides.
using OrderedJson = nlohmann::ordered_json;
using Pointer = nlohmann::json::json_pointer;

/// `text` as a JSON string literal, quotes and escapes included.
std::string jsonQuoted(std::string_view text) {
  return OrderedJson(std::string(text)).dump(-1, ' ', false, OrderedJson::error_handler_t::replace);
}

/// A key as one segment of a dotted key path: bare when it is a plain name, quoted otherwise, so
/// `permission.bash."git *"` reads unambiguously.
std::string pathSegment(std::string_view key) {
  const bool plain = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
  return plain ? std::string(key) : jsonQuoted(key);
}

/// A value as an error message shows what was found instead: scalars as written, containers by kind.
std::string describeValue(const OrderedJson& value) {
  if (value.is_object()) return "an object";
  if (value.is_array()) return "an array";
  return value.dump(-1, ' ', false, OrderedJson::error_handler_t::replace);
}

/// nlohmann's message without its "[json.exception.parse_error.101] " tag, nor the "parse error at
/// line 3, column 7: " that would repeat the position the caller gives in its own form.
std::string nlohmannDetail(std::string_view what) {
  if (what.starts_with("[json.exception.")) {
    if (const std::size_t tagEnd = what.find("] "); tagEnd != std::string_view::npos) what.remove_prefix(tagEnd + 2);
  }
  if (what.starts_with("parse error")) {
    if (const std::size_t colon = what.find(": "); colon != std::string_view::npos) what.remove_prefix(colon + 2);
  }
  return std::string(what);
}

/// The home directory: $HOME, else the password database's entry; nullopt when neither has one.
std::optional<std::string> userHomeDirectory() {
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') return std::string(home);
  std::array<char, 16384> buffer{};
  passwd entry{};
  passwd* found = nullptr;
  if (::getpwuid_r(::getuid(), &entry, buffer.data(), buffer.size(), &found) == 0 && found != nullptr &&
      found->pw_dir != nullptr && *found->pw_dir != '\0')
    return std::string(found->pw_dir);
  return std::nullopt;
}

/// What toold has instead of an opencode top-level setting, after an unknown key; empty for others.
std::string opencodeTopLevelHint(std::string_view key) {
  if (key == "model" || key == "small_model" || key == "provider")
    return R"(; toold chooses no model: the runner names it in each snapshot's "model", and the MCP face's is "mcp": {"model": "…"})";
  static constexpr std::string_view kOpencodeKeys[] = {
      "instructions", "theme", "keybinds", "share", "autoshare", "autoupdate", "command",
      "mode", "username", "disabled_providers", "enabled_providers", "plugin", "snapshot", "layout",
      "experimental", "compaction", "watcher", "server", "tui", "default_agent", "enterprise"};
  for (std::string_view known : kOpencodeKeys)
    if (key == known) return "; it is an opencode setting, which belongs in opencode's own config, not toold.json";
  return {};
}

/// The same for a key of an agent's section, where toold reads only `permission`.
std::string opencodeAgentHint(std::string_view agent, std::string_view key) {
  const std::string name = pathSegment(agent);
  if (key == "model")
    return R"(; toold chooses no model: the runner names it in each snapshot's "model")";
  if (key == "tools")
    return R"(; opencode's per-agent tool switches are permission rules in toold: "agent": {")" + std::string(agent) +
           R"(": {"permission": {"write": "deny"}}})";
  static constexpr std::string_view kOpencodeKeys[] = {"prompt", "description", "mode",  "temperature", "top_p",
                                                       "disable", "color",      "steps", "maxSteps",    "options"};
  for (std::string_view known : kOpencodeKeys)
    if (key == known) return "; agent." + name + "." + std::string(key) + " is an opencode agent setting: it belongs in opencode's config";
  return {};
}

/// Where a value sits: its pointer (for its line) and its dotted key path (for the message).
struct ConfigLocation {
  Pointer pointer = Pointer();
  std::string path; ///< e.g. permission.bash."git *"; empty for the document itself

  ConfigLocation member(const std::string& key) const {
    return {pointer / key, path.empty() ? pathSegment(key) : path + "." + pathSegment(key)};
  }
};

/// The location of any pointer into `root`: an index of an array shows as [i], anything else as a
/// key. Only duplicate keys, which may sit anywhere, need this; the reader knows its own locations.
ConfigLocation locationOf(const OrderedJson& root, const Pointer& pointer) {
  std::vector<std::string> tokens;
  for (Pointer rest = pointer; !rest.empty(); rest = rest.parent_pointer()) tokens.push_back(rest.back());
  std::reverse(tokens.begin(), tokens.end());
  ConfigLocation location;
  const OrderedJson* node = &root;
  for (const std::string& token : tokens) {
    if (node != nullptr && node->is_array()) {
      location.pointer /= token;
      location.path += "[" + token + "]";
      const auto index = static_cast<std::size_t>(std::strtoull(token.c_str(), nullptr, 10));
      node = index < node->size() ? &(*node)[index] : nullptr;
      continue;
    }
    location = location.member(token);
    if (node != nullptr && node->is_object()) {
      const auto child = node->find(token);
      node = child == node->end() ? nullptr : &*child;
    } else {
      node = nullptr;
    }
  }
  return location;
}

/// Turns the parsed document into a PermissionConfig, or throws at its first error.
class ConfigReader {
public:
  ConfigReader(std::string_view text, std::string displayName, std::optional<std::string> homeDirectory)
      : lines_(text), file_(std::move(displayName)), home_(std::move(homeDirectory)) {}

  PermissionConfig read(const OrderedJson& root) {
    // Before anything else: with a key given twice, the value read below may not be the one the
    // user looks at.
    if (!lines_.duplicates().empty()) {
      const DuplicateKey& duplicate = lines_.duplicates().front();
      failAtLine(duplicate.line, locationOf(root, duplicate.pointer).path + ": duplicate key (first on line " +
                                     std::to_string(duplicate.firstLine) + ")");
    }
    if (!root.is_object())
      fail(ConfigLocation{}, "expected a JSON object at the top level, got " + describeValue(root));

    PermissionConfig config;
    config.file = file_;
    for (const auto& [key, value] : root.items()) {
      const ConfigLocation at = ConfigLocation{}.member(key);
      if (key == "$schema") continue; // for editors (docs/toold.schema.json)
      if (key == "permission")
        config.rules = readPermission(value, at);
      else if (key == "agent")
        config.agents = readAgents(value, at);
      else if (key == "mcp") {
        config.mcpModel = readMcp(value, at);
        config.mcpForegroundLimit = readMcpForegroundLimit(value, at);
      }
      else if (key == "skills")
        config.skillPaths = readSkills(value, at);
      else if (key == "webfetch")
        config.webfetchPrivateAddresses = readWebfetch(value, at);
      else if (key == "codemode")
        config.codemode = readCodemode(value, at);
      else if (key == "asks")
        readAsks(value, at, config);
      else if (key == "output")
        readOutput(value, at, config);
      else if (key == "checkpoints")
        readCheckpoints(value, at, config);
      else if (key == "sandbox")
        config.sandbox = readSandbox(value, at);
      else if (key == "tools")
        continue; // command tools, read and checked by core/sources/config_tools
      else if (key == "lsp" || key == "formatter")
        continue; // read and checked by core/lsp (lsp_config, formatter_config)
      else
        fail(at, "unknown key " + jsonQuoted(key) +
                     R"( (expected "$schema", "permission", "agent", "mcp", "tools", "skills", "webfetch", "codemode", "asks", "output", "checkpoints", "sandbox", "lsp" or "formatter"))" +
                     opencodeTopLevelHint(key));
    }
    return config;
  }

private:
  /// `asks`: a route ("auto", "client" or "unattended"), or {route?, unattended?: "deny"|"allow"}.
  void readAsks(const OrderedJson& value, const ConfigLocation& at, PermissionConfig& config) {
    auto route = [&](const OrderedJson& entry, const ConfigLocation& member) {
      auto parsed = entry.is_string() ? parseAskRoute(entry.get<std::string>()) : std::nullopt;
      if (!parsed)
        fail(member, member.path + R"(: expected "auto", "client" or "unattended", got )" + describeValue(entry));
      return *parsed;
    };
    if (value.is_string()) {
      config.asks = route(value, at);
      return;
    }
    if (!value.is_object()) fail(at, at.path + ": expected a route or an object, got " + describeValue(value));
    for (const auto& [key, entry] : value.items()) {
      const ConfigLocation member = at.member(key);
      if (key == "route") {
        config.asks = route(entry, member);
      } else if (key == "unattended") {
        if (entry != "deny" && entry != "allow")
          fail(member, member.path + R"(: expected "deny" or "allow", got )" + describeValue(entry));
        config.unattendedAllow = entry == "allow";
      } else {
        fail(member, at.path + ": unknown key " + jsonQuoted(key) + R"( (expected "route" or "unattended"))");
      }
    }
  }

  /// `codemode`: true/false, or {enabled?, timeout?, maxToolCalls?, memory?, tools?: {pattern: bool}}.
  CodemodeSettings readCodemode(const OrderedJson& value, const ConfigLocation& at) {
    CodemodeSettings settings;
    if (value.is_boolean()) {
      settings.enabled = value.get<bool>();
      return settings;
    }
    if (!value.is_object()) fail(at, at.path + ": expected true, false or an object, got " + describeValue(value));
    settings.enabled = true;
    auto positive = [&](const OrderedJson& entry, const ConfigLocation& member) {
      if (!entry.is_number_unsigned() || entry.get<std::uint64_t>() == 0)
        fail(member, member.path + ": expected a positive integer, got " + describeValue(entry));
      return entry.get<std::uint64_t>();
    };
    for (const auto& [key, entry] : value.items()) {
      const ConfigLocation member = at.member(key);
      if (key == "enabled") {
        if (!entry.is_boolean()) fail(member, member.path + ": expected true or false, got " + describeValue(entry));
        settings.enabled = entry.get<bool>();
      } else if (key == "timeout") {
        settings.timeoutMs = positive(entry, member);
      } else if (key == "maxToolCalls") {
        settings.maxToolCalls = positive(entry, member);
      } else if (key == "memory") {
        settings.memoryMb = positive(entry, member);
      } else if (key == "tools") {
        if (!entry.is_object()) fail(member, member.path + ": expected an object, got " + describeValue(entry));
        for (const auto& [pattern, flag] : entry.items()) {
          const ConfigLocation tool = member.member(pattern);
          if (pattern.empty()) fail(tool, tool.path + ": empty tool pattern");
          if (!flag.is_boolean())
            fail(tool, tool.path + ": expected true (inside Code Mode) or false (direct), got " + describeValue(flag));
          settings.tools.emplace_back(pattern, flag.get<bool>());
        }
      } else {
        fail(member, at.path + ": unknown key " + jsonQuoted(key) +
                         R"( (expected "enabled", "timeout", "maxToolCalls", "memory" or "tools"))");
      }
    }
    return settings;
  }

  /// The MCP face's `{"model": "gpt-5"}`, the model its implicit snapshot is taken for. The
  /// section's servers (every other key, and a V1 server named "model") are the MCP client's,
  /// which reads and checks them (core/sources/mcp/mcp_config).
  std::optional<std::string> readMcp(const OrderedJson& value, const ConfigLocation& at) {
    if (!value.is_object()) fail(at, at.path + ": expected an object, got " + describeValue(value));
    std::optional<std::string> model;
    for (const auto& [key, entry] : value.items()) {
      const ConfigLocation member = at.member(key);
      if (key != "model" || entry.is_object()) continue;
      if (!entry.is_string() || entry.get_ref<const std::string&>().empty())
        fail(member, member.path + ": expected a model name, got " + describeValue(entry));
      model = entry.get<std::string>();
    }
    return model;
  }

  /// The MCP face's `{"foregroundLimit": 45}`: seconds (fractions allowed), 0 for never. A V1
  /// server of that name is an object, and the MCP client's.
  std::optional<std::chrono::milliseconds> readMcpForegroundLimit(const OrderedJson& value, const ConfigLocation& at) {
    const auto entry = value.find("foregroundLimit");
    if (entry == value.end() || entry->is_object()) return std::nullopt;
    const ConfigLocation member = at.member("foregroundLimit");
    if (!entry->is_number() || entry->get<double>() < 0 || entry->get<double>() > 86400.0 * 365)
      fail(member, member.path + ": expected 0 or a positive number of seconds, got " + describeValue(*entry));
    return std::chrono::milliseconds(static_cast<std::int64_t>(entry->get<double>() * 1000.0 + 0.5));
  }

  /// `{"paths": ["folder", …]}`: more folders the skill tool looks for SKILL.md files in.
  std::vector<std::string> readSkills(const OrderedJson& value, const ConfigLocation& at) {
    if (!value.is_object()) fail(at, at.path + ": expected an object, got " + describeValue(value));
    std::vector<std::string> paths;
    for (const auto& [key, entry] : value.items()) {
      const ConfigLocation member = at.member(key);
      if (key != "paths") fail(member, at.path + ": unknown key " + jsonQuoted(key) + R"( (expected "paths"))");
      if (!entry.is_array()) fail(member, member.path + ": expected an array of folders, got " + describeValue(entry));
      for (const auto& path : entry) {
        if (!path.is_string() || path.get_ref<const std::string&>().empty())
          fail(member, member.path + ": expected a folder name, got " + describeValue(path));
        paths.push_back(path.get<std::string>());
      }
    }
    return paths;
  }

  /// `{"maxBytes": N, "maxLines": N, "budgetBytes": N, "fileBytes": N}`: the budget of a tool's
  /// answer, and what the tool-output folder keeps; each a positive integer.
  void readOutput(const OrderedJson& value, const ConfigLocation& at, PermissionConfig& config) {
    if (!value.is_object()) fail(at, at.path + ": expected an object, got " + describeValue(value));
    for (const auto& [key, entry] : value.items()) {
      const ConfigLocation member = at.member(key);
      if (key != "maxBytes" && key != "maxLines" && key != "budgetBytes" && key != "fileBytes")
        fail(member, at.path + ": unknown key " + jsonQuoted(key) +
                         R"( (expected "maxBytes", "maxLines", "budgetBytes" or "fileBytes"))");
      if (!entry.is_number_unsigned() || entry.get<std::uint64_t>() == 0)
        fail(member, member.path + ": expected a positive integer, got " + describeValue(entry));
      if (key == "budgetBytes")
        config.outputBudgetBytes = entry.get<std::uint64_t>();
      else if (key == "fileBytes")
        config.outputFileBytes = entry.get<std::uint64_t>();
      else
        (key == "maxBytes" ? config.outputMaxBytes : config.outputMaxLines) = entry.get<std::size_t>();
    }
  }

  /// `{"enabled": bool, "budgetBytes": N}`: checkpoints on or off, and their size budget.
  void readCheckpoints(const OrderedJson& value, const ConfigLocation& at, PermissionConfig& config) {
    if (!value.is_object()) fail(at, at.path + ": expected an object, got " + describeValue(value));
    for (const auto& [key, entry] : value.items()) {
      const ConfigLocation member = at.member(key);
      if (key == "enabled") {
        if (!entry.is_boolean()) fail(member, member.path + ": expected true or false, got " + describeValue(entry));
        config.checkpointsEnabled = entry.get<bool>();
      } else if (key == "budgetBytes") {
        if (!entry.is_number_unsigned() || entry.get<std::uint64_t>() == 0)
          fail(member, member.path + ": expected a positive integer, got " + describeValue(entry));
        config.checkpointBudgetBytes = entry.get<std::uint64_t>();
      } else {
        fail(member, at.path + ": unknown key " + jsonQuoted(key) + R"( (expected "enabled" or "budgetBytes"))");
      }
    }
  }

  /// `"workspace-write"` or `{"mode", "network", "read", "write", "temp", "mcpServers"}`.
  SandboxSettings readSandbox(const OrderedJson& value, const ConfigLocation& at) {
    constexpr auto kModes = R"(expected "workspace-write", "read-only" or "off", got )";
    SandboxSettings settings;
    auto mode = [&](const OrderedJson& entry, const ConfigLocation& member) {
      auto parsed = entry.is_string() ? parseSandboxMode(entry.get<std::string>()) : std::nullopt;
      if (!parsed) fail(member, member.path + ": " + kModes + describeValue(entry));
      return *parsed;
    };
    if (value.is_string()) {
      settings.mode = mode(value, at);
      return settings;
    }
    if (!value.is_object()) fail(at, at.path + ": expected a mode or an object, got " + describeValue(value));
    for (const auto& [key, entry] : value.items()) {
      const ConfigLocation member = at.member(key);
      auto flag = [&] {
        if (!entry.is_boolean()) fail(member, member.path + ": expected true or false, got " + describeValue(entry));
        return entry.get<bool>();
      };
      if (key == "mode") settings.mode = mode(entry, member);
      else if (key == "network") settings.network = flag();
      else if (key == "temp") settings.systemTemp = flag();
      else if (key == "mcpServers") settings.mcpServers = flag();
      else if (key == "read" || key == "write") {
        if (!entry.is_array()) fail(member, member.path + ": expected an array of folders, got " + describeValue(entry));
        for (const auto& path : entry) {
          std::string folder = path.is_string() ? expandHome(path.get<std::string>(), member) : std::string();
          if (folder.empty() || folder.front() != '/')
            fail(member, member.path + ": expected an absolute folder (or one starting with ~/), got " + describeValue(path));
          (key == "read" ? settings.read : settings.write).push_back(std::move(folder));
        }
      } else {
        fail(member, at.path + ": unknown key " + jsonQuoted(key) +
                         R"( (expected "mode", "network", "read", "write", "temp" or "mcpServers"))");
      }
    }
    return settings;
  }

  /// `{"allowPrivateAddresses": true}`: webfetch may reach loopback and private addresses.
  bool readWebfetch(const OrderedJson& value, const ConfigLocation& at) {
    if (!value.is_object()) fail(at, at.path + ": expected an object, got " + describeValue(value));
    bool allowed = false;
    for (const auto& [key, entry] : value.items()) {
      const ConfigLocation member = at.member(key);
      if (key != "allowPrivateAddresses")
        fail(member, at.path + ": unknown key " + jsonQuoted(key) + R"( (expected "allowPrivateAddresses"))");
      if (!entry.is_boolean()) fail(member, member.path + ": expected true or false, got " + describeValue(entry));
      allowed = entry.get<bool>();
    }
    return allowed;
  }

  std::map<std::string, Ruleset, std::less<>> readAgents(const OrderedJson& value, const ConfigLocation& at) {
    if (!value.is_object()) fail(at, at.path + ": expected an object, got " + describeValue(value));
    std::map<std::string, Ruleset, std::less<>> agents;
    for (const auto& [name, entry] : value.items()) {
      const ConfigLocation agent = at.member(name);
      if (name.empty()) fail(agent, agent.path + ": empty agent name");
      if (!entry.is_object()) fail(agent, agent.path + ": expected an object, got " + describeValue(entry));
      Ruleset& rules = agents[name]; // an agent without `permission` is still an agent the file names
      for (const auto& [key, section] : entry.items()) {
        const ConfigLocation member = agent.member(key);
        if (key != "permission")
          fail(member, agent.path + ": unknown key " + jsonQuoted(key) + R"( (expected "permission"))" +
                           opencodeAgentHint(name, key));
        rules = readPermission(section, member);
      }
    }
    return agents;
  }

  /// A `permission` section: one effect, or actions mapped to an effect or to resource patterns.
  Ruleset readPermission(const OrderedJson& value, const ConfigLocation& at) {
    if (!value.is_object()) return {{"*", "*", readEffect(value, at, true), source(at)}};
    Ruleset rules;
    for (const auto& [action, actionValue] : value.items()) {
      const ConfigLocation actionAt = at.member(action);
      if (action.empty()) fail(actionAt, actionAt.path + ": empty action pattern");
      if (!actionValue.is_object()) {
        rules.push_back({action, "*", readEffect(actionValue, actionAt, true), source(actionAt)});
        continue;
      }
      for (const auto& [resource, effect] : actionValue.items()) {
        const ConfigLocation resourceAt = actionAt.member(resource);
        if (resource.empty()) fail(resourceAt, resourceAt.path + ": empty resource pattern");
        rules.push_back({action, expandHome(resource, resourceAt), readEffect(effect, resourceAt, false),
                         source(resourceAt)});
      }
    }
    return rules;
  }

  PermissionEffect readEffect(const OrderedJson& value, const ConfigLocation& at, bool objectAllowed) {
    if (value.is_string()) {
      // Exactly "allow", "deny" or "ask": a config is strict, so "Allow" or "" is an error.
      if (const auto effect = parsePermissionEffect(value.get_ref<const std::string&>())) return *effect;
      // A string was surely meant as an effect: name only those.
      objectAllowed = false;
    }
    const char* expected = objectAllowed ? R"("allow", "deny", "ask" or an object)" : R"("allow", "deny" or "ask")";
    fail(at, at.path + ": expected " + expected + ", got " + describeValue(value));
  }

  /// `~`, `~/…`, `$HOME` and `$HOME/…` with the home directory in front; any other `~` or `$` is
  /// literal (`~user` is not expanded: toold does not look up other users).
  std::string expandHome(const std::string& pattern, const ConfigLocation& at) {
    std::string_view rest; // what follows the home: empty or "/…"
    if (pattern == "~" || pattern.starts_with("~/"))
      rest = std::string_view(pattern).substr(1);
    else if (pattern == "$HOME" || pattern.starts_with("$HOME/"))
      rest = std::string_view(pattern).substr(5);
    else
      return pattern;
    const std::string& home = homeDirectory(at);
    if (rest.empty()) return home;
    return (home == "/" ? std::string() : home) + std::string(rest);
  }

  const std::string& homeDirectory(const ConfigLocation& at) {
    if (!home_) home_ = userHomeDirectory();
    if (!home_ || home_->empty())
      fail(at, at.path + ": cannot expand the home directory: $HOME is unset and the user has none");
    // "/home/u/" + "/x" would make a pattern with "//" that no normalized path matches.
    while (home_->size() > 1 && home_->back() == '/') home_->pop_back();
    return *home_;
  }

  std::size_t lineOf(const Pointer& pointer) const {
    // Every value read has its line; walking up is only a safety net for a map that lacks one.
    for (Pointer at = pointer;; at = at.parent_pointer()) {
      if (const auto line = lines_.line(at)) return *line;
      if (at.empty()) return 1;
    }
  }

  std::string source(const ConfigLocation& at) const { return file_ + ":" + std::to_string(lineOf(at.pointer)); }

  [[noreturn]] void fail(const ConfigLocation& at, const std::string& message) const {
    failAtLine(lineOf(at.pointer), message);
  }

  [[noreturn]] void failAtLine(std::size_t line, const std::string& message) const {
    throw ConfigError(file_ + ":" + std::to_string(line) + ": " + message);
  }

  JsonLineMap lines_;
  std::string file_;
  std::optional<std::string> home_; ///< resolved on first use: most files never need it
};

/// Notes the first error of a parse and where it happened. nlohmann's DOM parse throws some
/// errors (a number too large for a double) without their position; its SAX parse reports every
/// error with one.
class ParseErrorCatcher : public nlohmann::json_sax<OrderedJson> {
public:
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::json::exception& error) override {
    byte = position;
    message = error.what();
    return false;
  }

  std::size_t byte = 0; ///< characters read when the error was noticed, the offending one included
  std::string message;
};

} // namespace

ConfigError jsonSyntaxError(std::string_view text, const std::string& displayName) {
  ParseErrorCatcher catcher;
  if (OrderedJson::sax_parse(text.begin(), text.end(), &catcher) || catcher.message.empty())
    return ConfigError(displayName + ": cannot be parsed as JSON"); // the two parses disagree: not expected
  // The position is that of the last character nlohmann read: where it noticed the error.
  const std::size_t offset = catcher.byte == 0 ? 0 : catcher.byte - 1;
  const TextPosition at = textPositionAt(text, offset);
  std::string message = displayName + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) + ": " +
                        nlohmannDetail(catcher.message);
  const bool comment = (offset < text.size() && text[offset] == '/') || (offset > 0 && text[offset - 1] == '/');
  if (comment)
    message += " (toold.json is plain JSON: comments, which opencode's JSONC allows, are not; remove them)";
  return ConfigError(message);
}

PermissionConfig parsePermissionConfig(std::string_view text, const std::string& displayName,
                                       const std::optional<std::string>& homeDirectory) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
    throw ConfigError(displayName + ":1: expected a JSON object, got an empty file");
  // Bounded in depth like a frame: the reader and the line map walk the document recursively.
  auto parsed = protocol::parseBoundedOrdered(text);
  if (!parsed && parsed.refusal->kind == protocol::JsonRefusal::Kind::TooDeep) {
    const TextPosition at = textPositionAt(text, parsed.refusal->byte.value_or(0));
    throw ConfigError(displayName + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) + ": " +
                      parsed.refusal->message);
  }
  if (!parsed) throw jsonSyntaxError(text, displayName);
  return ConfigReader(text, displayName, homeDirectory).read(parsed.value);
}

PermissionConfig loadPermissionConfig(const std::filesystem::path& directory,
                                      const std::optional<std::filesystem::path>& explicitFile) {
  if (explicitFile) {
    const std::string name = explicitFile->string();
    return parsePermissionConfig(readConfigFile(*explicitFile, name), name);
  }
  const std::filesystem::path candidate = directory / kConfigFileName;
  const std::string name(kConfigFileName);
  std::error_code error;
  // symlink_status: a dangling symlink named toold.json is a config that cannot be read, not none.
  const std::filesystem::file_status status = std::filesystem::symlink_status(candidate, error);
  if (status.type() == std::filesystem::file_type::not_found) return {};
  if (error) throw ConfigError(name + ": cannot read: " + error.message());
  return parsePermissionConfig(readConfigFile(candidate, name), name);
}

} // namespace toold::core
