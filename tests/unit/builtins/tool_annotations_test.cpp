// Every built-in has MCP annotations; a read-only tool states no destructive or idempotent hint.
#include "builtins/tool_annotations.h"

#include <catch2/catch.hpp>

using toold::builtins::annotateBuiltin;

TEST_CASE("tool annotations: every built-in has a title and hints", "[tool_annotations]") {
  for (const char* name : {"read", "list", "glob", "grep", "write", "edit", "multiedit", "apply_patch", "bash",
                           "bash_output", "bash_kill", "bash_jobs"}) {
    toold::core::Tool tool;
    annotateBuiltin(name, tool);
    CHECK_FALSE(tool.title.empty());
    REQUIRE(tool.annotations.contains("readOnlyHint"));
    CHECK(tool.annotations.contains("destructiveHint") == !tool.annotations["readOnlyHint"].get<bool>());
  }
  toold::core::Tool unknown;
  CHECK_THROWS_AS(annotateBuiltin("teleport", unknown), std::logic_error);
}
