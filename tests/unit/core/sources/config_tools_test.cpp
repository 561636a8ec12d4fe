// The `tools` section and .toold/tools/*.json: checked strictly, every error with its file, line and key.
#include "core/permission/permission_config.h"
#include "core/sources/config_tools.h"

#include <catch2/catch.hpp>

namespace core = toold::core;

namespace {

std::string errorOf(const std::string& text) {
  try {
    core::parseConfigTools(text, "toold.json");
  } catch (const core::ConfigError& e) {
    return e.what();
  }
  return "accepted";
}

} // namespace

TEST_CASE("config tools: a declaration in register's shape is read") {
  const auto tools = core::parseConfigTools(R"({"tools": {
    "b": {"description": "B", "handler": {"type": "command", "argv": ["true"], "cwd": ".", "timeoutMs": 5}},
    "a": {"description": "A", "inputSchema": {"type": "object"}, "codemode": false, "permission": "edit", "mutates": true,
          "title": "T", "annotations": {"readOnlyHint": true}, "handler": {"type": "command", "argv": ["false"]}}}})",
                                            "toold.json");
  REQUIRE(tools.size() == 2);
  CHECK(tools[0].first == "b"); // the order of the file
  CHECK(tools[0].second.handler.timeoutMs == 5u);
  CHECK(tools[1].second.permission == "edit");
}

TEST_CASE("config tools: unknown keys of a tool and of its handler are refused with their line") {
  CHECK(errorOf("{\"tools\": {\"lint\": {\"description\": \"d\",\n \"timeout\": 5,\n"
                " \"handler\": {\"type\": \"command\", \"argv\": [\"true\"]}}}}") ==
        R"(toold.json:2: tools.lint.timeout: unknown key (expected "description", "inputSchema", "outputSchema", "codemode", "permission", "mutates", "title", "annotations" or "handler"); the handler's time limit is "timeoutMs", in milliseconds)");
  CHECK(errorOf("{\"tools\": {\"lint\": {\"description\": \"d\",\n \"handler\": {\"type\": \"command\",\n"
                " \"argv\": [\"true\"],\n \"cwdd\": \".\"}}}}") ==
        R"(toold.json:4: tools.lint.handler.cwdd: unknown key (expected "type", "argv", "cwd" or "timeoutMs"))");
}

TEST_CASE("config tools: register's own checks name the line of the key") {
  CHECK(errorOf("{\"tools\": {\"lint\": {\"description\": \"d\",\n \"handler\": {\"type\": \"command\",\n"
                " \"argv\": []}}}}") == "toold.json:3: tools.lint.handler.argv: must be a non-empty array of strings");
  CHECK(errorOf("{\"tools\": {\"lint\": {\"description\": \"d\",\n \"handler\": {\"type\": \"client\"}}}}") ==
        R"(toold.json:2: tools.lint.handler: a tool declared in config must be a command ({"type": "command", "argv": [...]}))");
}

TEST_CASE("config tools: an invalid inputSchema and the reserved name are refused with their line") {
  CHECK(errorOf("{\"tools\": {\"lint\": {\"description\": \"d\",\n \"inputSchema\": {\"type\": 5},\n"
                " \"handler\": {\"type\": \"command\", \"argv\": [\"true\"]}}}}")
            .starts_with("toold.json:2: tools.lint.inputSchema: invalid JSON Schema: "));
  CHECK(errorOf("{\"tools\": {\n\"Execute\": {\"description\": \"d\", \"handler\": {\"type\": \"command\", \"argv\": [\"true\"]}}}}") ==
        R"(toold.json:2: tools.Execute: Tool name "Execute" is reserved for Code Mode (in any case))");
}

TEST_CASE("config tools: opencode's tool switches get toold's equivalent") {
  CHECK(errorOf("{\"tools\": {\n \"write\": false}}") ==
        R"(toold.json:2: tools.write: false is opencode's switch for a tool; toold's "tools" declares command tools. To keep a tool from the model, deny it: {"permission": {"write": "deny"}})");
}
