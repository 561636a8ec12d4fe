// Calling a built-in tool directly, on the test's thread, with a permission assertion the test
// decides: what the pipeline would do, minus the pipeline, so a test can call a tool thousands of
// times a second.
#pragma once

#include "core/tools/tool.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace toold::testing {

/// How a test answers permission asks: nullopt grants, a string refuses with that message.
using AskPolicy = std::function<std::optional<std::string>(const core::PermissionAsk&)>;

/// Grants everything but `external_directory`, as a person who never lets the model out would.
inline std::optional<std::string> insideOnly(const core::PermissionAsk& ask) {
  if (ask.action == "external_directory") return "refused: " + ask.resources.front() + " is outside";
  return std::nullopt;
}

inline core::ToolContext toolContext(std::shared_ptr<const core::Location> location, AskPolicy policy = insideOnly) {
  core::ToolContext context;
  context.sessionID = "session";
  context.callID = "call";
  context.progress = [](core::json) {};
  context.location = std::move(location);
  context.assertPermission = [policy](core::PermissionAsk ask, core::PermissionContinuation next) {
    if (auto refusal = policy(ask)) return next(core::ToolFailure{*refusal, std::nullopt});
    next(std::nullopt);
  };
  return context;
}

/// What a call ended with: the text of its result or failure, and whether it succeeded.
struct CallOutcome {
  bool ok = false;
  std::string text;
};

/// Runs `tool` with `input`; every built-in file tool answers before returning when permission
/// asks are answered at once, as here.
inline CallOutcome callTool(const core::Tool& tool, core::json input, const core::ToolContext& context) {
  std::optional<CallOutcome> outcome;
  tool.execute(std::move(input), context, [&outcome](core::ToolCompletion completion) {
    CallOutcome result;
    if (auto* done = std::get_if<core::ToolResult>(&completion)) {
      result.ok = true;
      if (done->content) result.text = done->content->is_string() ? done->content->get<std::string>() : done->content->dump();
    } else if (auto* failure = std::get_if<core::ToolFailure>(&completion)) {
      result.text = failure->message;
    } else if (auto* defect = std::get_if<core::ToolDefect>(&completion)) {
      result.text = "defect: " + defect->message;
    } else {
      result.text = "declined: " + std::get<core::ToolDeclined>(completion).message;
    }
    outcome = std::move(result);
  });
  if (!outcome) return CallOutcome{false, "the tool did not answer before returning"};
  return *outcome;
}

} // namespace toold::testing
