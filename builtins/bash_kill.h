// `bash_kill`: stops a background job and its whole process group.
#pragma once

#include "builtins/shell_tools.h"
#include "core/tools/tool.h"

#include <memory>

namespace toold::builtins {

core::Tool makeBashKillTool(std::shared_ptr<ShellTools> shell);

} // namespace toold::builtins
