// `bash`: runs a shell command in the workspace, in the foreground or as a background job.
#pragma once

#include "builtins/shell_tools.h"
#include "core/tools/tool.h"

#include <memory>

namespace toold::builtins {

core::Tool makeBashTool(std::shared_ptr<ShellTools> shell);

} // namespace toold::builtins
