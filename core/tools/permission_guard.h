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

} // namespace toold::core
