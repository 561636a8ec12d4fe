// `bash_output`: a background job's output since an offset, and its state.
#pragma once

#include "builtins/shell_tools.h"
#include "core/tools/tool.h"

#include <memory>

namespace toold::builtins {

core::Tool makeBashOutputTool(std::shared_ptr<ShellTools> shell);

} // namespace toold::builtins
