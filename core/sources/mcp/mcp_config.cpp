#include "core/sources/mcp/mcp_config.h"

#include "core/permission/config_file.h"

#include "core/base/json_line_map.h"
#include "core/permission/permission_config.h"
#include "protocol/bounded_json.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <system_error>

namespace toold::core {

namespace {

using OrderedJson = nlohmann::ordered_json;
using Pointer = nlohmann::json::json_pointer;

std::string jsonQuoted(std::string_view text) {
  return nlohmann::json(std::string(text)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string segment(std::string_view key) {
  const bool plain = !key.empty() && key.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                                           "0123456789_-") == std::string_view::npos;
  return plain ? std::string(key) : jsonQuoted(key);
}

template <typename Json>
std::string describe(const Json& value) {
  if (value.is_object()) return "an object";
  if (value.is_array()) return "an array";
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

/// Reads server objects; the line map is absent for `mcp/connect`, whose errors have no file.
template <typename Json>
class ServerReader {
public:
  ServerReader(const JsonLineMap* lines, std::string file) : lines_(lines), file_(std::move(file)) {}

  struct At {
    Pointer pointer;
    std::string path;
    At member(const std::string& key) const { return {pointer / key, path.empty() ? segment(key) : path + "." + segment(key)}; }
  };

  [[noreturn]] void fail(const At& at, const std::string& message) const {
    if (!lines_) throw ConfigError(message);
    std::size_t line = 1;
    for (Pointer p = at.pointer;; p = p.parent_pointer()) {
      if (const auto found = lines_->line(p)) {
        line = *found;
        break;
      }
      if (p.empty()) break;
    }
    throw ConfigError(file_ + ":" + std::to_string(line) + ": " + message);
  }

  McpTimeouts timeouts(const Json& value, const At& at, McpTimeouts result) {
    if (value.is_number_integer()) { // V1: one number for start-up and the catalog
      const auto ms = milliseconds(value, at);
      result.startup = result.catalog = ms;
      return result;
    }
    if (!value.is_object())
      fail(at, at.path + ": expected milliseconds or an object {startup, catalog, execution}, got " + describe(value));
    for (const auto& [key, entry] : value.items()) {
      const At member = at.member(key);
      if (key == "startup")
        result.startup = milliseconds(entry, member);
      else if (key == "catalog")
        result.catalog = milliseconds(entry, member);
      else if (key == "execution")
        result.execution = milliseconds(entry, member);
      else
        fail(member, at.path + ": unknown key " + jsonQuoted(key) + R"( (expected "startup", "catalog" or "execution"))");
    }
    return result;
  }

  McpServerConfig server(const Json& value, const At& at, const McpTimeouts& defaults) {
    if (!value.is_object()) fail(at, at.path + ": expected a server object, got " + describe(value));
    McpServerConfig config;
    config.timeout = defaults;
    const auto type = value.find("type");
    if (type == value.end()) fail(at, at.path + R"(: missing "type" ("local" or "remote"))");
    if (*type == "local")
      config.kind = McpServerConfig::Kind::Local;
    else if (*type == "remote")
      config.kind = McpServerConfig::Kind::Remote;
    else
      fail(at.member("type"), at.path + R"(.type: expected "local" or "remote", got )" + describe(*type));
    const bool local = config.kind == McpServerConfig::Kind::Local;
    bool enabledSeen = false;
    for (const auto& [key, entry] : value.items()) {
      const At member = at.member(key);
      if (key == "type") continue;
      if (local && key == "command") {
        if (!entry.is_array() || entry.empty())
          fail(member, member.path + ": expected a non-empty array of strings, got " +
                           (entry.is_array() ? std::string("[]") : describe(entry)));
        for (std::size_t i = 0; i < entry.size(); ++i) {
          if (!entry[i].is_string())
            fail(member, member.path + "[" + std::to_string(i) + "]: expected a string, got " + describe(entry[i]));
          config.command.push_back(substituteEnvironment(entry[i].template get<std::string>()));
        }
        if (config.command.front().empty()) fail(member, member.path + "[0]: the program is empty");
      } else if (local && key == "environment") {
        config.environment = stringMap(entry, member);
      } else if (local && key == "cwd") {
        config.cwd = string(entry, member);
      } else if (!local && key == "url") {
        config.url = string(entry, member);
        if (config.url.empty()) fail(member, member.path + ": the URL is empty");
      } else if (!local && key == "headers") {
        config.headers = stringMap(entry, member);
      } else if (!local && key == "oauth") {
        // OAuth is not supported: `false` says so already; an object would be silently unused.
        if (!entry.is_boolean() || entry.template get<bool>())
          fail(member, member.path + ": OAuth is not supported; give the token in \"headers\" (Authorization) instead");
      } else if (key == "enabled") {
        config.disabled = !boolean(entry, member);
        enabledSeen = true;
      } else if (key == "disabled") {
        if (enabledSeen) fail(member, at.path + R"(: give "enabled" or "disabled", not both)");
        config.disabled = boolean(entry, member);
      } else if (key == "codemode") {
        config.codemode = boolean(entry, member);
      } else if (key == "roots") {
        config.roots = roots(entry, member);
      } else if (key == "timeout") {
        config.timeout = timeouts(entry, member, defaults);
      } else {
        const char* expected = local ? R"("type", "command", "environment", "cwd", "enabled", "disabled", "codemode", "roots" or "timeout")"
                                     : R"("type", "url", "headers", "oauth", "enabled", "disabled", "codemode", "roots" or "timeout")";
        fail(member, at.path + ": unknown key " + jsonQuoted(key) + " for a " + (local ? "local" : "remote") +
                         " server (expected " + expected + ")");
      }
    }
    if (local && config.command.empty()) fail(at, at.path + R"(: missing "command" (the program and its arguments))");
    if (!local && config.url.empty()) fail(at, at.path + R"(: missing "url")");
    if (!local && !config.url.starts_with("http://") && !config.url.starts_with("https://"))
      fail(at.member("url"), at.path + ".url: expected an http:// or https:// URL, got " + jsonQuoted(config.url));
    return config;
  }

private:
  McpRootsConfig roots(const Json& value, const At& at) {
    McpRootsConfig result;
    if (value.is_boolean()) {
      result.mode = value.template get<bool>() ? McpRootsConfig::Mode::Listed : McpRootsConfig::Mode::None;
      if (result.mode == McpRootsConfig::Mode::Listed) result.paths = {"."};
      return result;
    }
    if (!value.is_array())
      fail(at, at.path + ": expected true, false or an array of directories, got " + describe(value));
    result.mode = McpRootsConfig::Mode::Listed;
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (!value[i].is_string() || value[i].template get<std::string>().empty())
        fail(at, at.path + "[" + std::to_string(i) + "]: expected a directory, got " + describe(value[i]));
      result.paths.push_back(substituteEnvironment(value[i].template get<std::string>()));
    }
    return result;
  }
  std::chrono::milliseconds milliseconds(const Json& value, const At& at) {
    if (!value.is_number_integer() || value.template get<long long>() <= 0)
      fail(at, at.path + ": expected a positive number of milliseconds, got " + describe(value));
    return std::chrono::milliseconds(value.template get<long long>());
  }
  bool boolean(const Json& value, const At& at) {
    if (!value.is_boolean()) fail(at, at.path + ": expected true or false, got " + describe(value));
    return value.template get<bool>();
  }
  std::string string(const Json& value, const At& at) {
    if (!value.is_string()) fail(at, at.path + ": expected a string, got " + describe(value));
    return substituteEnvironment(value.template get<std::string>());
  }
  std::map<std::string, std::string> stringMap(const Json& value, const At& at) {
    if (!value.is_object()) fail(at, at.path + ": expected an object of strings, got " + describe(value));
    std::map<std::string, std::string> result;
    for (const auto& [key, entry] : value.items()) {
      const At member = at.member(key);
      if (key.empty()) fail(member, at.path + ": empty name");
      result[key] = string(entry, member);
    }
    return result;
  }

  const JsonLineMap* lines_;
  std::string file_;
};

} // namespace

McpConfig parseMcpConfig(std::string_view text, const std::string& displayName) {
  McpConfig config;
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) return config;
  auto parsed = protocol::parseBoundedOrdered(text);
  // The permission reader has refused a file that does not parse, with its position.
  if (!parsed || !parsed.value.is_object()) return config;
  const auto mcp = parsed.value.find("mcp");
  if (mcp == parsed.value.end() || !mcp->is_object()) return config;
  const JsonLineMap lines(text);
  using Reader = ServerReader<OrderedJson>;
  Reader reader(&lines, displayName);
  const Reader::At at{Pointer("/mcp"), "mcp"};
  // V2 keeps the servers under "servers" beside the shared "timeout"; V1 names them directly.
  if (mcp->contains("servers")) {
    McpTimeouts defaults;
    if (const auto timeout = mcp->find("timeout"); timeout != mcp->end())
      defaults = reader.timeouts(*timeout, at.member("timeout"), defaults);
    for (const auto& [key, value] : mcp->items()) {
      if (key == "servers" || key == "timeout" || key == "model" || key == "foregroundLimit") continue;
      reader.fail(at.member(key), "mcp: unknown key " + jsonQuoted(key) +
                                      R"( (expected "servers", "timeout", "model" or "foregroundLimit"))");
    }
    const auto& servers = (*mcp)["servers"];
    const Reader::At serversAt = at.member("servers");
    if (!servers.is_object()) reader.fail(serversAt, "mcp.servers: expected an object, got " + describe(servers));
    for (const auto& [name, value] : servers.items()) {
      if (name.empty()) reader.fail(serversAt.member(name), "mcp.servers: empty server name");
      config.servers[name] = reader.server(value, serversAt.member(name), defaults);
    }
    return config;
  }
  for (const auto& [name, value] : mcp->items()) {
    if (name == "model" && value.is_string()) continue; // toold's own MCP face
    if (name == "foregroundLimit" && value.is_number()) continue; // the same
    if (name == "timeout")
      reader.fail(at.member(name), R"(mcp.timeout: shared timeouts belong to the V2 shape, beside "servers")");
    if (name.empty()) reader.fail(at.member(name), "mcp: empty server name");
    config.servers[name] = reader.server(value, at.member(name), McpTimeouts{});
  }
  return config;
}

McpConfig loadMcpConfig(const std::filesystem::path& directory, const std::optional<std::filesystem::path>& explicitFile) {
  if (explicitFile) return parseMcpConfig(readConfigFile(*explicitFile, explicitFile->string()), explicitFile->string());
  const std::filesystem::path candidate = directory / kConfigFileName;
  std::error_code error;
  if (std::filesystem::symlink_status(candidate, error).type() == std::filesystem::file_type::not_found) return {};
  return parseMcpConfig(readConfigFile(candidate, std::string(kConfigFileName)), std::string(kConfigFileName));
}

McpServerConfig parseMcpServerConfig(const nlohmann::json& value, const std::string& path, const McpTimeouts& defaults) {
  ServerReader<nlohmann::json> reader(nullptr, "");
  return reader.server(value, {Pointer(), path}, defaults);
}

} // namespace toold::core
