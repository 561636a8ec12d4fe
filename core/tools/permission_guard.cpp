#include "core/tools/permission_guard.h"

namespace toold::core {

ToolCompletion refusalOf(const PermissionVerdict& verdict) {
  if (verdict.kind == PermissionVerdict::Kind::Declined) return ToolDeclined{verdict.message};
  return ToolFailure{verdict.message, std::nullopt};
}

ToolExecute guardedByPermission(std::string action, std::string toolName, ToolExecute execute) {
  return [action = std::move(action), toolName = std::move(toolName),
          execute = std::move(execute)](json input, ToolContext context, ToolDone done) {
    // The person deciding sees what the call would do; a copy is cheap beside a client round trip
    // or a process start.
    PermissionAsk ask{action, {"*"}, {"*"}, json{{"tool", toolName}, {"input", input}}};
    auto assertPermission = context.assertPermission;
    assertPermission(std::move(ask), [execute, input = std::move(input), context = std::move(context),
                                      done](std::optional<ToolCompletion> refusal) mutable {
      if (refusal) return done(std::move(*refusal));
      try {
        execute(std::move(input), std::move(context), done);
      } catch (const std::exception& e) {
        done(ToolDefect{e.what()});
      }
    });
  };
}

} // namespace toold::core
