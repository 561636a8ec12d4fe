// What a command tool's stdout means: a result object when it is one within the JSON bounds,
// else plain text.
#include "core/sources/command_tool.h"

#include <catch2/catch.hpp>

#include <string>
#include <variant>

using toold::core::commandStdoutToResult;
using toold::core::json;
using toold::core::ToolResult;

namespace {

ToolResult resultOf(const std::string& stdoutData) {
  auto completion = commandStdoutToResult(stdoutData, "cmd");
  REQUIRE(std::holds_alternative<ToolResult>(completion));
  return std::get<ToolResult>(completion);
}

} // namespace

TEST_CASE("a result object on stdout is the result", "[command_tool]") {
  const ToolResult result = resultOf("{\"output\": [[1]], \"metadata\": {\"k\": 2}}\n");
  CHECK(result.output == json::parse("[[1]]"));
  CHECK(result.metadata == json::parse(R"({"k": 2})"));
}

TEST_CASE("stdout nested past the depth limit is plain text, never walked", "[command_tool]") {
  // 100,000 levels: taken as a result, it would be copied and dumped recursively.
  const std::string deep = "{\"output\":" + std::string(100000, '[') + std::string(100000, ']') + "}";
  const ToolResult result = resultOf(deep);
  CHECK_FALSE(result.output);
  CHECK(result.content == json(deep));
}

TEST_CASE("stdout with a number beyond double range is plain text", "[command_tool]") {
  const ToolResult result = resultOf("{\"output\": 1e999}");
  CHECK_FALSE(result.output);
  CHECK(result.content == json("{\"output\": 1e999}"));
}
