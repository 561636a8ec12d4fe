#include "core/permission/config_restart.h"

#include <catch2/catch.hpp>

namespace core = toold::core;

namespace {

core::PermissionConfig parse(const std::string& text) { return core::parsePermissionConfig(text, "toold.json", "/home/u"); }

} // namespace

TEST_CASE("config restart: sections applied live need no restart") {
  const auto running = parse(R"({"permission": {"edit": "deny"}, "webfetch": {"allowPrivateAddresses": true}})");
  const auto next = parse(R"({"permission": "ask", "skills": {"paths": ["s"]}, "codemode": {"tools": {"read": true}},
                              "mcp": {"model": "gpt-5"}, "agent": {"plan": {"permission": "deny"}}})");
  CHECK(core::keysNeedingRestart(running, next).empty());
}

TEST_CASE("config restart: each start-up key is named when it changed") {
  const auto running = parse(R"({"asks": "auto", "output": {"maxBytes": 100}, "codemode": {"timeout": 5000}})");
  CHECK(core::keysNeedingRestart(running, running).empty());
  const auto next = parse(R"({"asks": {"route": "auto", "unattended": "allow"}, "output": {"maxBytes": 100, "maxLines": 9},
                              "codemode": {"timeout": 6000, "maxToolCalls": 3, "memory": 200}, "mcp": {"foregroundLimit": 0}})");
  CHECK(core::keysNeedingRestart(running, next) ==
        std::vector<std::string>{"asks.unattended", "output.maxLines", "mcp.foregroundLimit", "codemode.timeout",
                                 "codemode.maxToolCalls", "codemode.memory"});
  CHECK(core::keysNeedingRestart(running, parse("{}")) ==
        std::vector<std::string>{"asks.route", "output.maxBytes", "codemode.timeout"});
}

TEST_CASE("config restart: the refusal names the keys and says nothing was applied") {
  CHECK(core::restartRefusal({"output.maxBytes"}) ==
        "config/reload: output.maxBytes changed; it takes effect only when toold starts again, so nothing was "
        "applied (restart toold, or put it back as it was to reload the rest)");
  CHECK(core::restartRefusal({"asks.route", "output.maxBytes", "codemode.memory"}) ==
        "config/reload: asks.route, output.maxBytes and codemode.memory changed; they take effect only when toold "
        "starts again, so nothing was applied (restart toold, or put them back as they were to reload the rest)");
}

TEST_CASE("config restart: a changed sandbox is named, an unchanged one is not") {
  const auto running = parse(R"({"sandbox": {"mode": "workspace-write", "read": ["~/.rustup"]}})");
  CHECK(core::keysNeedingRestart(running, parse(R"({"sandbox": {"read": ["/home/u/.rustup"], "mode": "workspace-write"}})")).empty());
  CHECK(core::keysNeedingRestart(running, parse(R"({"sandbox": "read-only"})")) == std::vector<std::string>{"sandbox"});
  CHECK(core::keysNeedingRestart(running, parse(R"({"sandbox": {"network": true, "read": ["~/.rustup"]}})")) ==
        std::vector<std::string>{"sandbox"});
}
