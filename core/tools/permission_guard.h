// The permission check of registered tools (client-hosted and command tools): before they run,
// they assert their permission action over every resource (`*`), as opencode does for MCP tools.
// Built-ins assert their own actions and resources instead.
#pragma once

#include "core/permission/permission_service.h"
#include "core/tools/tool.h"

#include <string>

namespace toold::core {

/// How a call ends when its permission was not granted: a ToolFailure, or a ToolDeclined when the
/// person declined.
ToolCompletion refusalOf(const PermissionVerdict& verdict);

/// `execute`, run only once `action` is granted on `*` for the call; an "always" saves `*`.
ToolExecute guardedByPermission(std::string action, std::string toolName, ToolExecute execute);

namespace detail {

/// The action of a tool whose action is its name: an empty capture instead of a string.
struct ActionIsName {};
inline const std::string& actionOf(const ActionIsName&, const std::string& toolName) { return toolName; }
inline const std::string& actionOf(const std::string& ownAction, const std::string&) { return ownAction; }

template <class Action, class Body>
ToolExecute guardedNamed(Action action, std::string toolName, Body body) {
  return [action = std::move(action), toolName = std::move(toolName),
          body = std::move(body)](json input, ToolContext context, ToolDone done) {
    PermissionAsk ask{actionOf(action, toolName), {"*"}, {"*"}, json{{"tool", toolName}, {"input", input}}};
    auto assertPermission = context.assertPermission;
    assertPermission(std::move(ask), [toolName, body, input = std::move(input), context = std::move(context),
                                      done](std::optional<ToolCompletion> refusal) mutable {
      if (refusal) return done(std::move(*refusal));
      try {
        body(toolName, std::move(input), std::move(context), done);
      } catch (const std::exception& e) {
        done(ToolDefect{e.what()});
      }
    });
  };
}

} // namespace detail

/// guardedByPermission for a body that needs the tool's name, called as body(toolName, input,
/// context, done): one closure, with the name kept once and the action only when the tool names
/// its own (`ownAction` empty: the action is the name). A record can register thousands of tools,
/// and every closure and every copy of a name is memory each of them holds: without an action of
/// its own, the closure (a name and a small body) takes a 64-byte heap block rather than 96.
template <class Body>
ToolExecute guardedByPermissionNamed(std::string ownAction, std::string toolName, Body body) {
  if (ownAction.empty()) return detail::guardedNamed(detail::ActionIsName{}, std::move(toolName), std::move(body));
  return detail::guardedNamed(std::move(ownAction), std::move(toolName), std::move(body));
}

} // namespace toold::core
