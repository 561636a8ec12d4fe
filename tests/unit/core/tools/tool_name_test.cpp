#include "core/tools/tool_name.h"

#include <catch2/catch.hpp>

using namespace toold::core;

TEST_CASE("tool names: characters outside [A-Za-z0-9_-] become _", "[tool_name]") {
  CHECK(normalizeToolName("echo.tool") == "echo_tool");
  CHECK(normalizeToolName("$lookup") == "_lookup");
  CHECK(normalizeToolName("a b/c") == "a_b_c");
  CHECK(normalizeToolName("ok-name_1") == "ok-name_1");
  CHECK(normalizeToolName("h\xC3\xA9llo") == "h_llo");          // one _ per character, not per byte
  CHECK(normalizeToolName("\xF0\x9F\x98\x80!") == "__");          // a 4-byte emoji, then !
}

TEST_CASE("tool names: a namespace flattens to <namespace>_<name>, dots as _", "[tool_name]") {
  CHECK(effectiveToolName("echo", "acme") == "acme_echo");
  CHECK(effectiveToolName("echo", "acme.tools") == "acme_tools_echo");
  CHECK(effectiveToolName("2d_get_scene", "123._private.-tools") == "123__private_-tools_2d_get_scene");
  CHECK(effectiveToolName("echo", "invalid__namespace") == "invalid__namespace_echo");
  CHECK(effectiveToolName("-lookup", "") == "-lookup");
  CHECK(effectiveToolName("123", "") == "123");
}

TEST_CASE("tool names: invalid namespaces are refused, never normalized", "[tool_name]") {
  CHECK_THROWS_WITH(effectiveToolName("admin", "slack..admin"), Catch::Contains("Invalid tool namespace: \"slack..admin\""));
  CHECK_THROWS_AS(effectiveToolName("x", ".lead"), RegistrationError);
  CHECK_THROWS_AS(effectiveToolName("x", "trail."), RegistrationError);
  CHECK_THROWS_AS(effectiveToolName("x", "has space"), RegistrationError);
}

TEST_CASE("tool names: empty, over 64 characters and `execute` are refused", "[tool_name]") {
  CHECK_THROWS_WITH(effectiveToolName("", ""), Catch::Contains("empty"));
  CHECK(effectiveToolName(std::string(64, 'a'), "").size() == 64);
  CHECK_THROWS_WITH(effectiveToolName(std::string(65, 'a'), ""), Catch::Contains("the limit is 64"));
  CHECK_THROWS_WITH(effectiveToolName("b", std::string(63, 'a')), Catch::Contains("65 characters"));
  CHECK_THROWS_WITH(effectiveToolName("execute", ""), Catch::Contains("reserved for Code Mode"));
  CHECK(effectiveToolName("execute", "ns") == "ns_execute");
  CHECK_THROWS_WITH(effectiveToolName("EXECUTE", ""), Catch::Contains("reserved for Code Mode"));
  CHECK_THROWS_WITH(effectiveToolName("eXeCuTe", ""), Catch::Contains("reserved for Code Mode"));
  CHECK(effectiveToolName("executes", "") == "executes");
}
