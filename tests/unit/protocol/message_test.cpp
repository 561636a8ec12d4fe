// Classification of JSON-RPC messages: requests, notifications, responses, and every invalid shape.
#include "protocol/message.h"
#include "protocol/json_writer.h"

#include <catch2/catch.hpp>

#include <vector>

using namespace toold::protocol;
using nlohmann::json;

namespace {

Message classifyText(const char* text) { return classify(json::parse(text)); }

InvalidMessage invalidOf(const char* text) {
  auto message = classifyText(text);
  REQUIRE(std::holds_alternative<InvalidMessage>(message));
  return std::get<InvalidMessage>(message);
}

} // namespace

TEST_CASE("a request keeps its id's exact type and value", "[message]") {
  for (const char* text : {R"({"jsonrpc":"2.0","id":7,"method":"m"})", R"({"jsonrpc":"2.0","id":"7","method":"m"})",
                           R"({"jsonrpc":"2.0","id":-3,"method":"m"})",
                           R"({"jsonrpc":"2.0","id":18446744073709551615,"method":"m"})",
                           R"({"jsonrpc":"2.0","id":"é😀","method":"m"})"}) {
    INFO(text);
    auto message = classifyText(text);
    REQUIRE(std::holds_alternative<Request>(message));
    const json original = json::parse(text)["id"];
    const json& id = std::get<Request>(message).id;
    CHECK(id == original);
    CHECK(id.type() == original.type());
    CHECK(makeResult(id, nullptr).dump().find("\"id\":" + original.dump()) != std::string::npos);
  }
  CHECK(idKey(json(1)) != idKey(json("1")));
}

TEST_CASE("params are kept, absent params are null", "[message]") {
  auto request = std::get<Request>(classifyText(R"({"jsonrpc":"2.0","id":1,"method":"m","params":{"a":[1]}})"));
  CHECK(request.params == json::parse(R"({"a":[1]})"));
  auto positional = std::get<Request>(classifyText(R"({"jsonrpc":"2.0","id":1,"method":"m","params":[1,2]})"));
  CHECK(positional.params == json::parse("[1,2]"));
  auto none = std::get<Notification>(classifyText(R"({"jsonrpc":"2.0","method":"n"})"));
  CHECK(none.params.is_null());
}

TEST_CASE("a message without an id is a notification", "[message]") {
  auto message = classifyText(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  REQUIRE(std::holds_alternative<Notification>(message));
  CHECK(std::get<Notification>(message).method == "notifications/initialized");
}

TEST_CASE("responses carry a result or an error", "[message]") {
  auto ok = std::get<Response>(classifyText(R"({"jsonrpc":"2.0","id":"toold-1","result":{"x":1}})"));
  CHECK(ok.id == "toold-1");
  CHECK(*ok.result == json::parse(R"({"x":1})"));
  auto failed = std::get<Response>(classifyText(R"({"jsonrpc":"2.0","id":3,"error":{"code":-32001,"message":"no"}})"));
  REQUIRE(failed.error);
  CHECK(failed.error->code == ErrorCode::PermissionDeclined);
  CHECK(failed.error->message == "no");
  // A null result is still a result.
  auto nullResult = std::get<Response>(classifyText(R"({"jsonrpc":"2.0","id":3,"result":null})"));
  CHECK(nullResult.result->is_null());
}

TEST_CASE("malformed responses are invalid but never answered", "[message]") {
  CHECK_FALSE(invalidOf(R"({"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1}})").replyable);
  CHECK_FALSE(invalidOf(R"({"jsonrpc":"2.0","result":1})").replyable);
  CHECK_FALSE(invalidOf(R"({"jsonrpc":"2.0","id":1,"error":"bad"})").replyable);
}

TEST_CASE("every invalid request shape is -32600", "[message]") {
  struct Case {
    const char* text;
    json expectedId;
    const char* why;
  };
  const Case cases[] = {
      {"1", nullptr, "must be a JSON object"},
      {R"("text")", nullptr, "must be a JSON object"},
      {"null", nullptr, "must be a JSON object"},
      {R"({"id":1,"method":"m"})", 1, "\"jsonrpc\" is missing"},
      {R"({"jsonrpc":"1.0","id":1,"method":"m"})", 1, "must be the string \"2.0\""},
      {R"({"jsonrpc":2.0,"id":"a","method":"m"})", "a", "must be the string \"2.0\""},
      {R"({"jsonrpc":"2.0","id":1})", 1, "\"method\" is missing"},
      {R"({"jsonrpc":"2.0","id":1,"method":5})", 1, "\"method\" must be a string"},
      {R"({"jsonrpc":"2.0","id":1,"method":"m","params":3})", 1, "\"params\" must be an object or an array"},
      {R"({"jsonrpc":"2.0","id":{"a":1},"method":"m"})", nullptr, "not an object"},
      {R"({"jsonrpc":"2.0","id":[1],"method":"m"})", nullptr, "not an array"},
      {R"({"jsonrpc":"2.0","id":1.5,"method":"m"})", nullptr, "fractional"},
      {R"({"jsonrpc":"2.0","id":true,"method":"m"})", nullptr, "not a boolean"},
      {R"({"jsonrpc":"2.0","id":null,"method":"m"})", nullptr, "must not be null"},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    auto invalid = invalidOf(c.text);
    CHECK(invalid.error.code == ErrorCode::InvalidRequest);
    CHECK(invalid.replyable);
    CHECK(invalid.id == c.expectedId);
    CHECK_THAT(invalid.error.message, Catch::Contains(c.why));
  }
}

TEST_CASE("built messages have the JSON-RPC 2.0 envelope", "[message]") {
  CHECK(makeRequest("toold-1", "permission/ask", {{"a", 1}}) ==
        json::parse(R"({"jsonrpc":"2.0","id":"toold-1","method":"permission/ask","params":{"a":1}})"));
  CHECK(makeNotification("tool/progress", nullptr) == json::parse(R"({"jsonrpc":"2.0","method":"tool/progress"})"));
  CHECK(makeError(nullptr, {ErrorCode::ParseError, "Parse error", {}}) ==
        json::parse(R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}})"));
  CHECK(makeError(2, {ErrorCode::InvalidParams, "bad", {{"path", "a"}}})["error"]["data"]["path"] == "a");
}

TEST_CASE("an error code that does not fit 32 bits makes a malformed response", "[message]") {
  for (const char* text : {R"({"jsonrpc":"2.0","id":"t","error":{"code":4294967296,"message":"no"}})",
                           R"({"jsonrpc":"2.0","id":"t","error":{"code":-2147483649,"message":"no"}})",
                           R"({"jsonrpc":"2.0","id":"t","error":{"code":18446744073709551615,"message":"no"}})"}) {
    INFO(text);
    const InvalidMessage invalid = invalidOf(text);
    CHECK_FALSE(invalid.replyable);
    CHECK_THAT(invalid.error.message, Catch::Contains("32 bits"));
  }
  auto widest = classifyText(R"({"jsonrpc":"2.0","id":"t","error":{"code":-2147483648,"message":"no"}})");
  REQUIRE(std::holds_alternative<Response>(widest));
  CHECK(static_cast<long long>(std::get<Response>(widest).error->code) == -2147483648LL);
}

TEST_CASE("answers written at once are the bytes of their envelopes", "[protocol]") {
  using toold::protocol::encodeError;
  using toold::protocol::encodeResult;
  using toold::protocol::writeJson;
  const std::vector<json> ids = {json(0), json(-7), json(18446744073709551615ULL), json("a\"b\\c\n"), json(nullptr)};
  const std::vector<json> results = {json::object(), json(nullptr), json::parse(R"({"z":[1,"\u0001"],"a":{"b":true}})"),
                                     json("é and \xF0\x9F\x98\x80")};
  for (const auto& id : ids) {
    for (const auto& result : results) {
      CHECK(encodeResult(id, result) == writeJson(makeResult(id, result)));
      const std::string written = toold::protocol::encodeResultWith(id, [&](std::string& out) { out += writeJson(result); });
      CHECK(written == writeJson(makeResult(id, result)));
    }
    const RpcError plain{ErrorCode::InvalidParams, "bad \"input\"", {}};
    const RpcError withData{ErrorCode::InternalError, "x", json{{"path", "a"}}};
    CHECK(encodeError(id, plain) == writeJson(makeError(id, plain)));
    CHECK(encodeError(id, withData) == writeJson(makeError(id, withData)));
  }
}

namespace {

// What a classified message says, written out, so that two classifications can be compared.
std::string describe(const Message& message) {
  return std::visit(
      [](const auto& m) -> std::string {
        using T = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<T, Request>) return "request " + m.id.dump() + " " + m.method + " " + m.params.dump();
        else if constexpr (std::is_same_v<T, Notification>) return "notification " + m.method + " " + m.params.dump();
        else if constexpr (std::is_same_v<T, Response>)
          return "response " + m.id.dump() + " " + (m.result ? m.result->dump() : "-") + " " +
                 (m.error ? json(*m.error).dump() : "-");
        else return "invalid " + m.id.dump() + " " + json(m.error).dump() + (m.replyable ? " replyable" : "");
      },
      message);
}

} // namespace

TEST_CASE("a frame classified from its members reads as the parsed object does", "[message]") {
  const char* texts[] = {
      R"({"jsonrpc":"2.0","id":7,"method":"ping"})",
      R"({"method":"tools/call","params":{"name":"read","arguments":{"a":[1,2]}},"id":"x","jsonrpc":"2.0"})",
      R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}})",
      R"({"jsonrpc":"2.0","id":18446744073709551615,"method":"m","params":[1]})",
      R"({"jsonrpc":"2.0","id":"toold-1","result":{"a":1}})",
      R"({"jsonrpc":"2.0","id":"toold-2","error":{"code":-32000,"message":"no","data":[1]}})",
      R"({"jsonrpc":"2.0","id":1,"error":{"code":4294967296}})",
      R"({"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1}})",
      R"({"jsonrpc":"2.0","result":1})",
      R"({"id":1,"method":"m"})",
      R"({"jsonrpc":"1.0","id":1,"method":"m"})",
      R"({"jsonrpc":"2.0","id":1})",
      R"({"jsonrpc":"2.0","id":1,"method":5})",
      R"({"jsonrpc":"2.0","id":1,"method":"m","params":3})",
      R"({"jsonrpc":"2.0","id":{"a":1},"method":"m"})",
      R"({"jsonrpc":"2.0","id":1.5,"method":"m"})",
      R"({"jsonrpc":"2.0","id":2.0,"method":"m"})",
      R"({"jsonrpc":"2.0","id":true,"method":"m"})",
      R"({"jsonrpc":"2.0","id":null,"method":"m"})",
      R"({"jsonrpc":"2.0","id":1,"method":"a","method":"b","extra":{"x":null}})",
      R"({})",
  };
  for (const char* text : texts) {
    INFO(text);
    auto members = toold::protocol::parseObjectMembersFast(text, 512);
    REQUIRE(members.has_value());
    CHECK(describe(classify(std::move(*members))) == describe(classifyText(text)));
  }
}
