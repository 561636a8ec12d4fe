#include "builtins/codemode/program_result.h"

#include <catch2/catch.hpp>

using namespace toold::codemode;
using json = nlohmann::json;

TEST_CASE("program output: strings verbatim, other values pretty-printed, then warnings and logs", "[codemode]") {
  ProgramResult result;
  result.ok = true;
  result.value = "plain text";
  CHECK(renderProgramOutput(result) == "plain text");
  result.value = json{{"a", 1}, {"b", {true, nullptr}}};
  CHECK(renderProgramOutput(result) == "{\n  \"a\": 1,\n  \"b\": [\n    true,\n    null\n  ]\n}");
  result.value = nullptr;
  result.warnings = {{"ToolFailure", "it broke", {}, std::nullopt}, {"Truncated", "cut", {}, std::nullopt}};
  result.logs = {"one", "two"};
  CHECK(renderProgramOutput(result) == "null\n\nWarnings:\n- [ToolFailure] it broke\n- [Truncated] cut\n\nLogs:\none\ntwo");
}

TEST_CASE("program output: a failure is the message and the suggestions it does not already say", "[codemode]") {
  ProgramResult result;
  result.error = Diagnostic{"UnknownTool", "Unknown tool 'tools.x'. Use search.", {"Use search.", "Check the catalog."}, std::nullopt};
  result.warnings = {{"ToolFailure", "not shown on failure", {}, std::nullopt}};
  result.logs = {"kept"};
  CHECK(renderProgramOutput(result) == "Unknown tool 'tools.x'. Use search.\nCheck the catalog.\n\nLogs:\nkept");
}

TEST_CASE("program results cross the worker's pipe unchanged", "[codemode]") {
  ProgramResult result;
  result.ok = false;
  result.error = Diagnostic{"ParseError", "bad", {"fix it"}, json{{"line", 2}, {"column", 3}}};
  result.logs = {"l"};
  result.interrupted = true;
  const ProgramResult back = resultFromJson(resultToJson(result));
  CHECK_FALSE(back.ok);
  CHECK(back.error->kind == "ParseError");
  CHECK(back.error->suggestions == std::vector<std::string>{"fix it"});
  CHECK(back.error->location == json{{"line", 2}, {"column", 3}});
  CHECK(back.logs == result.logs);
  CHECK(back.interrupted);
  CHECK(resultFromJson(json::object()).error->kind == "ExecutionFailure");
}
