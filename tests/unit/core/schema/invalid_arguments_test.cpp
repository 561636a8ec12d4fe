// The invalid-arguments answer: exact text for one issue, more than five, and the paths a
// schema reports.
#include "core/schema/invalid_arguments.h"

#include "core/schema/json_schema.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using toold::core::CompiledSchema;
using toold::core::formatInvalidArguments;
using toold::core::json;
using toold::core::SchemaIssue;

namespace {

std::vector<SchemaIssue> numberedIssues(int count) {
  std::vector<SchemaIssue> issues;
  for (int i = 0; i < count; ++i) issues.push_back({"a" + std::to_string(i), "Missing key"});
  return issues;
}

}  // namespace

TEST_CASE("one issue", "[invalid_arguments]") {
  CHECK(formatInvalidArguments("read_file", {{"path", "Expected string, received number"}}, {{"path", 1}}) ==
        "Invalid arguments for tool \"read_file\":\n"
        "- path: Expected string, received number\n"
        "\n"
        "Arguments provided:\n"
        "{\n"
        "  \"path\": 1\n"
        "}\n"
        "\n"
        "Update the arguments and call the tool again.");
}

TEST_CASE("six issues list five and count one more issue", "[invalid_arguments]") {
  CHECK(formatInvalidArguments("t", numberedIssues(6), json::object()) ==
        "Invalid arguments for tool \"t\":\n"
        "- a0: Missing key\n"
        "- a1: Missing key\n"
        "- a2: Missing key\n"
        "- a3: Missing key\n"
        "- a4: Missing key\n"
        "- ...and 1 more issue\n"
        "\n"
        "Arguments provided:\n"
        "{}\n"
        "\n"
        "Update the arguments and call the tool again.");
}

TEST_CASE("seven issues count two more issues", "[invalid_arguments]") {
  const std::string text = formatInvalidArguments("t", numberedIssues(7), json::object());
  CHECK(text ==
        "Invalid arguments for tool \"t\":\n"
        "- a0: Missing key\n"
        "- a1: Missing key\n"
        "- a2: Missing key\n"
        "- a3: Missing key\n"
        "- a4: Missing key\n"
        "- ...and 2 more issues\n"
        "\n"
        "Arguments provided:\n"
        "{}\n"
        "\n"
        "Update the arguments and call the tool again.");
}

TEST_CASE("five issues are all listed, with no count", "[invalid_arguments]") {
  const std::string text = formatInvalidArguments("t", numberedIssues(5), json::object());
  CHECK(text.find("- a4: Missing key\n\nArguments provided:") != std::string::npos);
  CHECK(text.find("more issue") == std::string::npos);
}

TEST_CASE("the root path, from a schema", "[invalid_arguments]") {
  const json arguments = json::array({1});
  const auto issues = CompiledSchema::compile({{"type", "object"}})->validate(arguments);
  CHECK(formatInvalidArguments("edit", issues, arguments) ==
        "Invalid arguments for tool \"edit\":\n"
        "- root: Expected object, received array\n"
        "\n"
        "Arguments provided:\n"
        "[\n"
        "  1\n"
        "]\n"
        "\n"
        "Update the arguments and call the tool again.");
}

TEST_CASE("nested and array paths, from a schema", "[invalid_arguments]") {
  const json schema = {{"type", "object"},
                       {"properties",
                        {{"edits",
                          {{"type", "array"},
                           {"items",
                            {{"type", "object"},
                             {"required", {"old", "new"}},
                             {"properties", {{"old", {{"type", "string"}}}, {"new", {{"type", "string"}}}}},
                             {"additionalProperties", false}}}}}}}};
  const json arguments = {{"edits", {{{"old", "a"}, {"new", "b"}}, {{"old", 2}, {"neww", "c"}}}}};
  const auto issues = CompiledSchema::compile(schema)->validate(arguments);
  CHECK(formatInvalidArguments("multi_edit", issues, arguments) ==
        "Invalid arguments for tool \"multi_edit\":\n"
        "- edits[1].new: Missing key\n"
        "- edits[1].neww: Unexpected key\n"
        "- edits[1].old: Expected string, received number\n"
        "\n"
        "Arguments provided:\n"
        "{\n"
        "  \"edits\": [\n"
        "    {\n"
        "      \"new\": \"b\",\n"
        "      \"old\": \"a\"\n"
        "    },\n"
        "    {\n"
        "      \"neww\": \"c\",\n"
        "      \"old\": 2\n"
        "    }\n"
        "  ]\n"
        "}\n"
        "\n"
        "Update the arguments and call the tool again.");
}

TEST_CASE("arguments 100,000 levels deep are shown cut, without recursion", "[invalid_arguments]") {
  // Built by moves: a value built in code is not bound by the frame's depth limit, and an
  // initializer list would copy it, recursively.
  json deep = 0;
  for (int i = 0; i < 100000; ++i) {
    json outer = json::array();
    outer.push_back(std::move(deep));
    deep = std::move(outer);
  }
  const json arguments = {{"path", std::move(deep)}};
  const std::string text = formatInvalidArguments("read", {{"path", "Expected string, received array"}}, arguments);
  CHECK_THAT(text, Catch::Contains("\"path\": [\n"));
  CHECK_THAT(text, Catch::Contains("[...]"));
  CHECK_THAT(text, Catch::EndsWith("Update the arguments and call the tool again."));
  CHECK(text.size() < 20000);
}

TEST_CASE("huge arguments are cut at 16 KiB", "[invalid_arguments]") {
  const json arguments = {{"content", std::string(1 << 20, 'x')}};
  const std::string text = formatInvalidArguments("write", {{"path", "Missing key"}}, arguments);
  CHECK_THAT(text, Catch::Contains("...(cut at 16384 bytes)"));
  CHECK(text.size() < 17000);
}
