// assertEach asks in turn: verdicts given at once go on in its own loop (a command with thousands
// of paths to ask about must not nest a stack frame per ask), verdicts given later go on from
// where they come, and the first refusal ends the run.
#include "builtins/tool_support.h"

#include <catch2/catch.hpp>

#include <deque>
#include <functional>
#include <optional>
#include <string>

using namespace toold;

namespace {

core::PermissionAsk ask(std::string resource) { return core::PermissionAsk{"read", {resource}, {resource}, {}}; }

std::vector<core::PermissionAsk> asks(std::size_t count) {
  std::vector<core::PermissionAsk> list;
  for (std::size_t i = 0; i < count; ++i) list.push_back(ask("file-" + std::to_string(i)));
  return list;
}

struct Outcome {
  int calls = 0;
  bool refused = false;
};

// A context whose rules answer every ask at once: granted, but refused at ask number `refuseAt`
// (counting from 1; 0 for never).
core::ToolContext answeringAtOnce(std::size_t& asked, std::size_t refuseAt = 0) {
  core::ToolContext context;
  context.assertPermission = [&asked, refuseAt](core::PermissionAsk, core::PermissionContinuation next) {
    if (++asked == refuseAt) return next(core::ToolFailure{"denied", std::nullopt});
    next(std::nullopt);
  };
  return context;
}

core::PermissionContinuation recordInto(Outcome& outcome) {
  return [&outcome](std::optional<core::ToolCompletion> refusal) {
    ++outcome.calls;
    outcome.refused = refusal.has_value();
  };
}

} // namespace

TEST_CASE("assertEach: verdicts given at once do not nest, however many asks", "[assert_each]") {
  std::size_t asked = 0;
  Outcome outcome;
  builtins::assertEach(answeringAtOnce(asked), asks(300000), recordInto(outcome));
  CHECK(asked == 300000);
  CHECK(outcome.calls == 1);
  CHECK_FALSE(outcome.refused);
}

TEST_CASE("assertEach: verdicts given later go on in turn, and the first refusal ends the run", "[assert_each]") {
  core::ToolContext context;
  std::deque<std::pair<std::string, core::PermissionContinuation>> waiting;
  context.assertPermission = [&waiting](core::PermissionAsk a, core::PermissionContinuation next) {
    waiting.emplace_back(a.resources.front(), std::move(next));
  };
  Outcome outcome;
  builtins::assertEach(context, asks(3), recordInto(outcome));
  REQUIRE(waiting.size() == 1); // one ask at a time
  CHECK(waiting.front().first == "file-0");
  auto next = std::move(waiting.front().second);
  waiting.pop_front();
  next(std::nullopt);
  REQUIRE(waiting.size() == 1);
  CHECK(waiting.front().first == "file-1");
  next = std::move(waiting.front().second);
  waiting.pop_front();
  next(core::ToolFailure{"no", std::nullopt});
  CHECK(waiting.empty()); // file-2 is never asked
  CHECK(outcome.calls == 1);
  CHECK(outcome.refused);

  // No asks: granted at once.
  Outcome none;
  builtins::assertEach(context, {}, recordInto(none));
  CHECK(none.calls == 1);
  CHECK_FALSE(none.refused);
}

TEST_CASE("assertEach: a refusal given at once ends the run at once", "[assert_each]") {
  std::size_t asked = 0;
  Outcome outcome;
  builtins::assertEach(answeringAtOnce(asked, 2), asks(5), recordInto(outcome));
  CHECK(asked == 2);
  CHECK(outcome.calls == 1);
  CHECK(outcome.refused);
}
