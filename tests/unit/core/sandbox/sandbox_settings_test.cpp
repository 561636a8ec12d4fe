// The `sandbox` section of toold.json: its short and long forms, `~` in folders, and each error
// named with the file, the line and the key.
#include "core/permission/permission_config.h"

#include <catch2/catch.hpp>

namespace core = toold::core;

namespace {

core::SandboxSettings parse(const std::string& text) {
  return core::parsePermissionConfig(text, "toold.json", "/home/u").sandbox;
}

std::string errorOf(const std::string& text) {
  try {
    parse(text);
  } catch (const core::ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

} // namespace

TEST_CASE("sandbox settings: none given is workspace-write by default, temp on, network off") {
  const auto settings = parse("{}");
  CHECK_FALSE(settings.mode.has_value());
  CHECK_FALSE(settings.network);
  CHECK(settings.systemTemp);
  CHECK_FALSE(settings.mcpServers);
}

TEST_CASE("sandbox settings: a mode alone, or the object with every key") {
  CHECK(parse(R"({"sandbox": "read-only"})").mode == core::SandboxMode::ReadOnly);
  CHECK(parse(R"({"sandbox": "off"})").mode == core::SandboxMode::Off);
  const auto settings = parse(R"({"sandbox": {"mode": "workspace-write", "network": true, "read": ["~/.rustup", "/opt/x"],
                                              "write": ["~/.cache/go"], "temp": false, "mcpServers": true}})");
  CHECK(settings.mode == core::SandboxMode::WorkspaceWrite);
  CHECK(settings.network);
  CHECK(settings.read == std::vector<std::string>{"/home/u/.rustup", "/opt/x"});
  CHECK(settings.write == std::vector<std::string>{"/home/u/.cache/go"});
  CHECK_FALSE(settings.systemTemp);
  CHECK(settings.mcpServers);
}

TEST_CASE("sandbox settings: errors name the key and what was expected") {
  CHECK(errorOf(R"({"sandbox": "strict"})") ==
        R"(toold.json:1: sandbox: expected "workspace-write", "read-only" or "off", got "strict")");
  CHECK(errorOf("{\n \"sandbox\": {\"mode\": \"read-only\",\n \"netwrok\": true}}") ==
        R"(toold.json:3: sandbox: unknown key "netwrok" (expected "mode", "network", "read", "write", "temp" or "mcpServers"))");
  CHECK(errorOf(R"({"sandbox": {"read": ["src"]}})") ==
        R"(toold.json:1: sandbox.read: expected an absolute folder (or one starting with ~/), got "src")");
  CHECK(errorOf(R"({"sandbox": {"network": "yes"}})") == R"(toold.json:1: sandbox.network: expected true or false, got "yes")");
  CHECK(errorOf(R"({"sandbox": 3})") == "toold.json:1: sandbox: expected a mode or an object, got 3");
}
