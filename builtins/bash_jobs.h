// `bash_jobs`: the session's background jobs and their states.
#pragma once

#include "builtins/shell_tools.h"
#include "core/tools/tool.h"

#include <memory>

namespace toold::builtins {

core::Tool makeBashJobsTool(std::shared_ptr<ShellTools> shell);

} // namespace toold::builtins
