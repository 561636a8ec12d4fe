#include "protocol/json_writer.h"
#include "protocol/tool_messages.h"
#include "protocol/tool_outcome.h"

#include <catch2/catch.hpp>

using namespace toold::protocol;

namespace {

// A completed outcome of one text item, with the call's ids.
ToolOutcome textOutcome(std::string session, std::string agent, std::string message, std::string call, std::string text) {
  ToolOutcome outcome;
  outcome.sessionID = std::move(session);
  outcome.agent = std::move(agent);
  outcome.messageID = std::move(message);
  outcome.callID = std::move(call);
  outcome.content = json::array({json{{"type", "text"}, {"text", std::move(text)}}});
  return outcome;
}

} // namespace

TEST_CASE("register params: a client and a command tool, options and defaults", "[tool_messages]") {
  auto params = parseRegisterParams(json::parse(R"({
    "scope": "mine",
    "tools": {
      "look": {"description": "Looks", "handler": {"type": "client"}},
      "run": {"description": "Runs", "inputSchema": {"type": "object"}, "outputSchema": {"type": "string"},
              "codemode": false, "permission": "bash", "mutates": true,
              "handler": {"type": "command", "argv": ["sh", "-c", "cat"], "cwd": "sub", "timeoutMs": 500}}
    },
    "options": {"namespace": "acme.tools"}
  })"));
  CHECK(params.scope == "mine");
  REQUIRE(params.tools.size() == 2);
  const auto& [lookName, look] = params.tools[0];
  CHECK(lookName == "look");
  CHECK(look.inputSchema == json::object());
  CHECK(look.handler.type == HandlerSpec::Type::Client);
  const auto& run = params.tools[1].second;
  CHECK(run.outputSchema == json{{"type", "string"}});
  CHECK(run.codemode == false);
  CHECK(run.permission == "bash");
  CHECK(run.mutates);
  CHECK(run.handler.argv == std::vector<std::string>{"sh", "-c", "cat"});
  CHECK(run.handler.cwd == "sub");
  CHECK(run.handler.timeoutMs == 500u);
  CHECK(params.options.ns == "acme.tools");
}

TEST_CASE("register params: every bad shape names its path", "[tool_messages]") {
  auto failsWith = [](const char* text, const char* message) {
    CHECK_THROWS_WITH(parseRegisterParams(json::parse(text)), message);
  };
  failsWith(R"({})", "tools: is required");
  failsWith(R"({"tools": []})", "tools: must be an object of authored name → tool spec");
  failsWith(R"({"tools": {}})", "tools: must name at least one tool");
  failsWith(R"({"tools": {"a": {"handler": {"type": "client"}}}})", "tools.a.description: is required");
  failsWith(R"({"tools": {"a": {"description": "d"}}})", "tools.a.handler: is required");
  failsWith(R"({"tools": {"a": {"description": "d", "handler": {"type": "rpc"}}}})",
            "tools.a.handler.type: must be \"client\" or \"command\", not \"rpc\"");
  failsWith(R"({"tools": {"a": {"description": "d", "handler": {"type": "command", "argv": []}}}})",
            "tools.a.handler.argv: must be a non-empty array of strings");
  failsWith(R"({"tools": {"a": {"description": "d", "inputSchema": 3, "handler": {"type": "client"}}}})",
            "tools.a.inputSchema: must be a JSON Schema (an object)");
  failsWith(R"({"scope": "", "tools": {"a": {"description": "d", "handler": {"type": "client"}}}})",
            "scope: must not be empty");
}

TEST_CASE("snapshot and call params", "[tool_messages]") {
  auto snapshot = parseSnapshotParams(json::parse(
      R"({"sessionID": "s", "agent": "build", "model": "gpt-5", "final": true,
          "rules": [{"action": "edit", "resource": "*", "effect": "deny"}]})"));
  CHECK(snapshot.final);
  REQUIRE(snapshot.rules.size() == 1);
  CHECK(snapshot.rules[0].effect == "deny");
  CHECK_THROWS_WITH(parseSnapshotParams(json::parse(R"({"sessionID": "s", "agent": "a", "rules": [{"action": "x", "resource": "*", "effect": "maybe"}]})")),
                    "rules[0].effect: must be \"allow\", \"deny\" or \"ask\"");
  CHECK_THROWS_WITH(parseSnapshotParams(json::parse(R"({"agent": "a"})")), "sessionID: is required");

  auto call = parseCallParams(json::parse(
      R"({"snapshot": "snapshot-1", "sessionID": "s", "agent": "a", "messageID": "m", "callID": "c", "name": "x",
          "input": [1, 2]})"));
  CHECK(call.input == json::array({1, 2}));
  CHECK_THROWS_WITH(parseCallParams(json::parse(R"({"snapshot": "x", "sessionID": "s", "agent": "a", "messageID": "m", "name": "x"})")),
                    "callID: is required");
}

TEST_CASE("tool outcome: completed and error shapes, and what an after-hook may change", "[tool_messages]") {
  ToolOutcome outcome = textOutcome("s", "a", "m", "c", "hi");
  json completed = outcome;
  CHECK(completed == json::parse(R"({"sessionID": "s", "agent": "a", "messageID": "m", "callID": "c",
                                     "status": "completed", "content": [{"type": "text", "text": "hi"}]})"));
  applyOutcomeJson(json::parse(R"({"status": "error", "error": {"message": "nope"}, "callID": "other"})"), outcome);
  json failed = outcome;
  CHECK(failed == json::parse(R"({"sessionID": "s", "agent": "a", "messageID": "m", "callID": "c",
                                  "status": "error", "error": {"type": "tool.failure", "message": "nope"}})"));
  CHECK_THROWS_WITH(applyOutcomeJson(json::parse(R"({"status": "done"})"), outcome),
                    "outcome.status: must be \"completed\" or \"error\"");
}

TEST_CASE("tool outcome: written out directly, the same bytes as its JSON tree written", "[tool_messages]") {
  auto written = [](const ToolOutcome& outcome) {
    std::string direct;
    appendOutcomeJson(direct, outcome);
    CHECK(direct == writeJson(outcomeToJson(ToolOutcome(outcome))));
    CHECK(json::parse(direct) == json(outcome));
    return direct;
  };
  ToolOutcome outcome = textOutcome("s\"1", "a", "m\n", "c\\", "line 1\nline 2\t\"quoted\" \xC3\xA9");
  written(outcome); // the least a completed call has

  outcome.output = json{{"count", 3}, {"names", {"x", "y"}}};
  outcome.metadata = json{{"preview", "p"}, {"truncated", false}};
  outcome.outputPaths = {"/data/tool-output/one", "/data/tool-output/two"};
  outcome.notices = {"an approval could not be saved"};
  CHECK(written(outcome).find(R"("notices":["an approval could not be saved"],"output":{)") != std::string::npos);

  outcome.output = json("a string output"); // any JSON value
  outcome.metadata.reset();
  written(outcome);
  outcome.truncated = true; // the pipeline's cut, said beside the paths and never in metadata
  CHECK(written(outcome).ends_with(R"("status":"completed","truncated":true})"));
  CHECK(json::parse(written(outcome)).count("metadata") == 0);

  outcome.status = ToolOutcome::Status::Error;
  outcome.errorType = std::string(error_type::kFailure);
  outcome.errorMessage = "it broke: \x01";
  CHECK(written(outcome).find("truncated") == std::string::npos); // what a completed call had is not shown for an error
  outcome.partial = json{{"progress", 2}, {"message", "half"}};
  outcome.notices.clear();
  CHECK(written(outcome).ends_with(R"("partial":{"message":"half","progress":2},"sessionID":"s\"1","status":"error"})"));
}

TEST_CASE("tool outcome: the size hint covers a text-heavy answer, so it is allocated once", "[tool_messages]") {
  std::string page;
  for (int i = 1; i <= 100; ++i) page += std::to_string(i) + ": line of the file the answer shows, with \"quotes\"\n";
  ToolOutcome outcome = textOutcome("session", "build", "message", "call", page);
  outcome.metadata = json{{"preview", page.substr(0, 1400)}, {"truncated", true}};
  outcome.output = json{{"content", page}};
  std::string written;
  appendOutcomeJson(written, outcome);
  CHECK(outcomeSizeHint(outcome) >= written.size());
  CHECK(outcomeSizeHint(outcome) < 2 * written.size());
}
