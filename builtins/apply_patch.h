// `apply_patch`: adds, deletes, updates and moves files described in one patch, all or nothing.
#pragma once

#include "builtins/file_tools.h"
#include "core/tools/tool.h"

#include <memory>

namespace toold::builtins {

core::Tool makeApplyPatchTool(std::shared_ptr<FileTools> files);

} // namespace toold::builtins
