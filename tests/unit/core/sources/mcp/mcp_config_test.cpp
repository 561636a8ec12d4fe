#include "core/permission/permission_config.h"
#include "core/sources/mcp/mcp_config.h"

#include <catch2/catch.hpp>

#include <cstdlib>

using toold::core::ConfigError;
using toold::core::McpConfig;
using toold::core::McpServerConfig;
using toold::core::parseMcpConfig;

namespace {

std::string errorOf(const std::string& text) {
  try {
    parseMcpConfig(text, "toold.json");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "no error";
}

} // namespace

TEST_CASE("mcp config: the V1 shape names servers directly", "[mcp_config]") {
  const McpConfig config = parseMcpConfig(R"({"mcp": {"model": "gpt-5",
    "fs": {"type": "local", "command": ["npx", "-y", "server"], "environment": {"A": "1"}, "enabled": false, "timeout": 5000},
    "docs": {"type": "remote", "url": "https://example.com/mcp", "headers": {"Authorization": "Bearer x"}}}})",
                                          "toold.json");
  REQUIRE(config.servers.size() == 2);
  const McpServerConfig& fs = config.servers.at("fs");
  CHECK(fs.kind == McpServerConfig::Kind::Local);
  CHECK(fs.command == std::vector<std::string>{"npx", "-y", "server"});
  CHECK(fs.environment.at("A") == "1");
  CHECK(fs.disabled);
  CHECK(fs.timeout.startup == std::chrono::milliseconds(5000));
  CHECK(fs.timeout.catalog == std::chrono::milliseconds(5000));
  CHECK(fs.timeout.execution == std::chrono::hours(12));
  const McpServerConfig& docs = config.servers.at("docs");
  CHECK(docs.kind == McpServerConfig::Kind::Remote);
  CHECK(docs.headers.at("Authorization") == "Bearer x");
}

TEST_CASE("mcp config: the V2 shape, with shared timeouts a server may override", "[mcp_config]") {
  const McpConfig config = parseMcpConfig(R"({"mcp": {"timeout": {"startup": 1000, "execution": 2000},
    "servers": {"a": {"type": "local", "command": ["a"], "cwd": "sub", "codemode": false, "disabled": true,
                      "timeout": {"execution": 600000}},
                "b": {"type": "local", "command": ["b"]}}}})",
                                          "toold.json");
  const McpServerConfig& a = config.servers.at("a");
  CHECK(a.cwd == "sub");
  CHECK_FALSE(a.codemode);
  CHECK(a.disabled);
  CHECK(a.timeout.startup == std::chrono::milliseconds(1000));
  CHECK(a.timeout.catalog == std::chrono::milliseconds(30000));
  CHECK(a.timeout.execution == std::chrono::milliseconds(600000));
  CHECK(config.servers.at("b").timeout.execution == std::chrono::milliseconds(2000));
  CHECK(config.servers.at("b").codemode);
}

TEST_CASE("mcp config: {env:NAME} is replaced, an unset variable by nothing", "[mcp_config]") {
  ::setenv("TOOLD_MCP_TEST_VAR", "value", 1);
  ::unsetenv("TOOLD_MCP_TEST_UNSET");
  const McpConfig config = parseMcpConfig(R"({"mcp": {"s": {"type": "local",
    "command": ["{env:TOOLD_MCP_TEST_VAR}/bin", "x{env:TOOLD_MCP_TEST_UNSET}y"], "environment": {"K": "a{env:TOOLD_MCP_TEST_VAR}"}}}})",
                                          "toold.json");
  CHECK(config.servers.at("s").command == std::vector<std::string>{"value/bin", "xy"});
  CHECK(config.servers.at("s").environment.at("K") == "avalue");
  CHECK(toold::core::substituteEnvironment("{env:") == "{env:");
}

TEST_CASE("mcp config: errors name the file, the line and the key", "[mcp_config]") {
  CHECK(errorOf("{\"mcp\": {\n\"fs\": {\"type\": \"local\", \"command\": []}}}") ==
        "toold.json:2: mcp.fs.command: expected a non-empty array of strings, got []");
  CHECK(errorOf("{\"mcp\": {\"fs\": {\"type\": \"local\",\n \"command\": [\"x\"], \"args\": [\"y\"]}}}") ==
        R"(toold.json:2: mcp.fs: unknown key "args" for a local server (expected "type", "command", "environment", "cwd", "enabled", "disabled", "codemode", "roots" or "timeout"))");
  CHECK(errorOf("{\"mcp\": {\"fs\": {\"command\": [\"x\"]}}}") == R"(toold.json:1: mcp.fs: missing "type" ("local" or "remote"))");
  CHECK(errorOf("{\"mcp\": {\"fs\": {\"type\": \"stdio\"}}}") == R"(toold.json:1: mcp.fs.type: expected "local" or "remote", got "stdio")");
  CHECK(errorOf("{\"mcp\": {\"servers\": {\"r\": {\"type\": \"remote\",\n\"url\": \"ftp://x\"}}}}") ==
        R"(toold.json:2: mcp.servers.r.url: expected an http:// or https:// URL, got "ftp://x")");
  CHECK(errorOf("{\"mcp\": {\"servers\": {},\n\"extra\": 1}}") ==
        R"(toold.json:2: mcp: unknown key "extra" (expected "servers", "timeout", "model" or "foregroundLimit"))");
  CHECK(errorOf("{\"mcp\": {\"servers\": {\"a\": {\"type\": \"local\", \"command\": [\"a\"],\n\"timeout\": {\"exec\": 1}}}}}") ==
        R"(toold.json:2: mcp.servers.a.timeout: unknown key "exec" (expected "startup", "catalog" or "execution"))");
  CHECK(errorOf("{\"mcp\": {\"a\": {\"type\": \"local\", \"command\": [\"a\"],\n\"enabled\": \"yes\"}}}") ==
        R"(toold.json:2: mcp.a.enabled: expected true or false, got "yes")");
  CHECK(errorOf("{\"mcp\": {\"a\": {\"type\": \"local\", \"command\": [\"a\"], \"timeout\": 0}}}") ==
        "toold.json:1: mcp.a.timeout: expected a positive number of milliseconds, got 0");
}

TEST_CASE("mcp config: roots: automatic, false, true or a list of directories", "[mcp_config]") {
  using Mode = toold::core::McpRootsConfig::Mode;
  const McpConfig config = parseMcpConfig(R"({"mcp": {
    "auto": {"type": "local", "command": ["a"]},
    "off": {"type": "local", "command": ["a"], "roots": false},
    "all": {"type": "remote", "url": "http://x", "roots": true},
    "some": {"type": "local", "command": ["a"], "roots": ["sub", "/abs"]}}})",
                                          "toold.json");
  CHECK(config.servers.at("auto").roots.mode == Mode::Automatic);
  CHECK(config.servers.at("off").roots.mode == Mode::None);
  CHECK(config.servers.at("all").roots.mode == Mode::Listed);
  CHECK(config.servers.at("all").roots.paths == std::vector<std::string>{"."});
  CHECK(config.servers.at("some").roots.paths == std::vector<std::string>{"sub", "/abs"});
  CHECK(errorOf("{\"mcp\": {\"a\": {\"type\": \"local\", \"command\": [\"a\"],\n\"roots\": \"sub\"}}}") ==
        R"(toold.json:2: mcp.a.roots: expected true, false or an array of directories, got "sub")");
  CHECK(errorOf("{\"mcp\": {\"a\": {\"type\": \"local\", \"command\": [\"a\"], \"roots\": [\"\"]}}}") ==
        R"(toold.json:1: mcp.a.roots[0]: expected a directory, got "")");
}

TEST_CASE("mcp config: mcp/connect's server object", "[mcp_config]") {
  const McpServerConfig config = toold::core::parseMcpServerConfig(
      nlohmann::json::parse(R"({"type": "local", "command": ["x", "y"]})"), "server");
  CHECK(config.command.size() == 2);
  try {
    toold::core::parseMcpServerConfig(nlohmann::json::parse(R"({"type": "local"})"), "server");
    FAIL("no error");
  } catch (const ConfigError& e) {
    CHECK(std::string(e.what()) == R"(server: missing "command" (the program and its arguments))");
  }
}
