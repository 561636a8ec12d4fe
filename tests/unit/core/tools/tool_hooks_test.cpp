#include "core/tools/tool_hooks.h"

#include <catch2/catch.hpp>

using namespace toold::core;

TEST_CASE("hooks: run in registration order, each on the event the previous returned", "[hooks]") {
  ToolHooks hooks;
  hooks.add(HookPoint::Before, [](const json& event, auto done) {
    json changed = event;
    changed["trail"].push_back("first");
    done(HookReply{changed, std::nullopt});
  });
  hooks.add(HookPoint::After, [](const json&, auto) { FAIL("an after hook ran for the before point"); });
  hooks.add(HookPoint::Before, [](const json& event, auto done) {
    json changed = event;
    changed["trail"].push_back("second");
    done(HookReply{changed, std::nullopt});
  });
  std::optional<HookReply> result;
  hooks.run(HookPoint::Before, json{{"trail", json::array()}}, [&](HookReply reply) { result = std::move(reply); });
  REQUIRE(result);
  CHECK(result->event["trail"] == json::array({"first", "second"}));
  CHECK_FALSE(result->refusal);
}

TEST_CASE("hooks: a refusal stops the chain", "[hooks]") {
  ToolHooks hooks;
  int later = 0;
  hooks.add(HookPoint::Before, [](const json& event, auto done) { done(HookReply{event, "not today"}); });
  hooks.add(HookPoint::Before, [&](const json& event, auto done) {
    ++later;
    done(HookReply{event, std::nullopt});
  });
  std::optional<HookReply> result;
  hooks.run(HookPoint::Before, json::object(), [&](HookReply reply) { result = std::move(reply); });
  REQUIRE(result);
  CHECK(result->refusal == "not today");
  CHECK(later == 0);
}

TEST_CASE("hooks: removal takes exactly one hook, twice is harmless, no hooks passes the event through",
          "[hooks]") {
  ToolHooks hooks;
  CHECK(hooks.empty(HookPoint::After));
  auto id = hooks.add(HookPoint::After, [](const json&, auto done) { done(HookReply{json("changed"), std::nullopt}); });
  CHECK_FALSE(hooks.empty(HookPoint::After));
  hooks.remove(id);
  hooks.remove(id);
  CHECK(hooks.empty(HookPoint::After));
  std::optional<HookReply> result;
  hooks.run(HookPoint::After, json("original"), [&](HookReply reply) { result = std::move(reply); });
  REQUIRE(result);
  REQUIRE(result->event.is_string());
  CHECK(result->event.get<std::string>() == "original");
}
