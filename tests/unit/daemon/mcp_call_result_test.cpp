// A call's outcome as MCP's CallToolResult, written out: the exact text a host receives.
#include "daemon/mcp_call_result.h"

#include <catch2/catch.hpp>

using toold::daemon::appendCallToolResult;
using toold::protocol::ToolOutcome;
using nlohmann::json;

namespace {

std::string written(const ToolOutcome& outcome) {
  std::string out;
  appendCallToolResult(out, outcome);
  REQUIRE_NOTHROW(json::parse(out));
  return out;
}

ToolOutcome completed(json content) {
  ToolOutcome outcome;
  outcome.sessionID = "s";
  outcome.callID = "c";
  outcome.content = std::move(content);
  return outcome;
}

} // namespace

TEST_CASE("call tool result: texts as they are, an object output as structuredContent", "[mcp_call_result]") {
  ToolOutcome outcome = completed(json::array({json{{"type", "text"}, {"text", "line 1\nline \"2\""}}}));
  CHECK(written(outcome) == R"({"content":[{"text":"line 1\nline \"2\"","type":"text"}],"isError":false})");
  outcome.output = json{{"content", "line 1"}};
  CHECK(written(outcome) ==
        R"({"content":[{"text":"line 1\nline \"2\"","type":"text"}],"isError":false,"structuredContent":{"content":"line 1"}})");
  outcome.output = json("a string output is in the text already");
  CHECK(written(outcome) == R"({"content":[{"text":"line 1\nline \"2\"","type":"text"}],"isError":false})");
}

TEST_CASE("call tool result: toold's file items become MCP's images, resources and links", "[mcp_call_result]") {
  ToolOutcome outcome = completed(json::array({
      json{{"type", "file"}, {"mime", "image/png"}, {"uri", "data:image/png;base64,iVBO"}},
      json{{"type", "file"}, {"mime", "application/pdf"}, {"uri", "data:application/pdf;base64,JVBE"}, {"name", "a.pdf"}},
      json{{"type", "file"}, {"mime", "text/plain"}, {"uri", "file:///w/notes.txt"}},
      json{{"type", "text"}, {"text", "after"}},
  }));
  CHECK(written(outcome) == R"({"content":[)"
                            R"({"data":"iVBO","mimeType":"image/png","type":"image"},)"
                            R"({"resource":{"blob":"JVBE","mimeType":"application/pdf","uri":"attachment:a.pdf"},"type":"resource"},)"
                            R"({"mimeType":"text/plain","name":"file:///w/notes.txt","type":"resource_link","uri":"file:///w/notes.txt"},)"
                            R"({"text":"after","type":"text"}],"isError":false})");
}

TEST_CASE("call tool result: a failure's message, and notices for the host in _meta", "[mcp_call_result]") {
  ToolOutcome outcome = completed(json::array({json{{"type", "text"}, {"text", "partial"}}}));
  outcome.status = ToolOutcome::Status::Error;
  outcome.errorType = "tool.failure";
  outcome.errorMessage = "File not found: a.txt";
  outcome.output = json{{"never", "shown"}};
  CHECK(written(outcome) == R"({"content":[{"text":"File not found: a.txt","type":"text"}],"isError":true})");
  outcome.notices = {"the approval could not be saved", "second"};
  CHECK(written(outcome) == R"({"_meta":{"toold/notices":["the approval could not be saved","second"]},)"
                            R"("content":[{"text":"File not found: a.txt","type":"text"}],"isError":true})");
  outcome.status = ToolOutcome::Status::Completed;
  outcome.output.reset();
  CHECK(written(outcome) == R"({"_meta":{"toold/notices":["the approval could not be saved","second"]},)"
                            R"("content":[{"text":"partial","type":"text"}],"isError":false})");
}

TEST_CASE("call tool result: a relayed MCP item is the server's again, with the text as it was bounded",
          "[mcp_call_result]") {
  ToolOutcome outcome = completed(json::array(
      {json{{"type", "text"}, {"text", "Resource doc: test://d"}, {"mcp", {{"type", "resource_link"}, {"uri", "test://d"}, {"name", "doc"}}}},
       json{{"type", "text"}, {"text", "cut text"}, {"mcp", {{"type", "resource"}, {"resource", {{"uri", "test://e"}}}}}},
       json{{"type", "file"}, {"mime", "application/pdf"}, {"uri", "data:application/pdf;base64,AQID"}, {"name", "test://f"},
            {"mcp", {{"type", "resource"}, {"resource", {{"uri", "test://f"}, {"mimeType", "application/pdf"}}}}}},
       json{{"type", "text"}, {"text", "plain"}, {"mcp", "not an item"}}}));
  const json result = json::parse(written(outcome));
  CHECK(result["content"][0] == json{{"type", "resource_link"}, {"uri", "test://d"}, {"name", "doc"}});
  CHECK(result["content"][1] == json{{"type", "resource"}, {"resource", {{"uri", "test://e"}, {"text", "cut text"}}}});
  CHECK(result["content"][2] ==
        json{{"type", "resource"}, {"resource", {{"uri", "test://f"}, {"mimeType", "application/pdf"}, {"blob", "AQID"}}}});
  CHECK(result["content"][3] == json{{"type", "text"}, {"text", "plain"}});
}

TEST_CASE("native outcome: the relayed MCP item is left out", "[mcp_call_result]") {
  ToolOutcome outcome = completed(json::array({json{{"type", "text"}, {"text", "t"}, {"mcp", {{"type", "resource_link"}}}}}));
  std::string out;
  toold::protocol::appendOutcomeJson(out, outcome);
  CHECK(json::parse(out)["content"] == json::array({json{{"type", "text"}, {"text", "t"}}}));
  CHECK(toold::protocol::outcomeToJson(ToolOutcome(outcome))["content"] == json::array({json{{"type", "text"}, {"text", "t"}}}));
}
