#include "core/permission/permission_prompter.h"

#include <catch2/catch.hpp>

using namespace toold::core;

namespace {

PermissionReply reply(const PromptAnswer& answer) {
  REQUIRE(std::holds_alternative<PermissionReply>(answer));
  return std::get<PermissionReply>(answer);
}

std::string problem(const PromptAnswer& answer) {
  REQUIRE(std::holds_alternative<std::string>(answer));
  return std::get<std::string>(answer);
}

} // namespace

TEST_CASE("permission prompter: permission/ask replies", "[permission_prompter]") {
  CHECK(reply(parsePermissionReply(json{{"reply", "once"}})).kind == PermissionReplyKind::Once);
  CHECK(reply(parsePermissionReply(json{{"reply", "always"}})).kind == PermissionReplyKind::Always);
  auto rejected = reply(parsePermissionReply(json{{"reply", "reject"}, {"message", "use rg instead"}}));
  CHECK(rejected.kind == PermissionReplyKind::Reject);
  CHECK(rejected.message == "use rg instead");
  CHECK(problem(parsePermissionReply(json{{"reply", "yes"}})) ==
        "the client's reply \"yes\" is not \"once\", \"always\" or \"reject\"");
  CHECK(problem(parsePermissionReply(json::object())).find("has no \"reply\"") != std::string::npos);
  CHECK(problem(parsePermissionReply(json())).find("has no \"reply\"") != std::string::npos);
}

TEST_CASE("permission prompter: elicitation replies", "[permission_prompter]") {
  auto accepted = [](json content) { return parseElicitationReply(json{{"action", "accept"}, {"content", content}}); };
  CHECK(reply(accepted(json{{"decision", "once"}})).kind == PermissionReplyKind::Once);
  CHECK(reply(accepted(json{{"decision", "always"}})).kind == PermissionReplyKind::Always);
  auto corrected = reply(accepted(json{{"decision", "reject"}, {"message", "not there"}}));
  CHECK(corrected.kind == PermissionReplyKind::Reject);
  CHECK(corrected.message == "not there");
  for (const char* action : {"decline", "cancel"}) {
    auto declined = reply(parseElicitationReply(json{{"action", action}}));
    CHECK(declined.kind == PermissionReplyKind::Reject);
    CHECK(declined.message.empty());
  }
  CHECK(problem(accepted(json{{"decision", "maybe"}})).find("no valid \"decision\"") != std::string::npos);
  CHECK(problem(parseElicitationReply(json{{"action", "accept"}})).find("no valid \"decision\"") != std::string::npos);
  CHECK(problem(parseElicitationReply(json{{"action", "ok"}})).find("\"ok\"") != std::string::npos);
}

TEST_CASE("permission prompter: the elicitation form names the ask and offers three choices", "[permission_prompter]") {
  json request{{"id", "per_1"},
               {"sessionID", "s1"},
               {"agent", "build"},
               {"action", "bash"},
               {"resources", {"git push", "rm x"}},
               {"save", {"git push *"}},
               {"metadata", json::object()},
               {"source", {{"type", "tool"}, {"messageID", "m1"}, {"callID", "c1"}}}};
  json params = elicitationParams(request);
  CHECK(params["message"] == "Allow bash on git push, rm x? (call c1, session s1)");
  const json& schema = params["requestedSchema"];
  CHECK(schema["type"] == "object");
  CHECK(schema["required"] == json{"decision"});
  CHECK(schema["properties"]["decision"]["enum"] == json{"once", "always", "reject"});
  CHECK(schema["properties"]["decision"]["description"] == "\"Allow always\" saves: git push *");
  CHECK(schema["properties"]["message"]["type"] == "string");
}
