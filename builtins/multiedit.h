// `multiedit`: several edits to one file, applied in order to the running result, all or nothing.
#pragma once

#include "builtins/file_tools.h"
#include "core/tools/tool.h"

#include <memory>

namespace toold::builtins {

core::Tool makeMultiEditTool(std::shared_ptr<FileTools> files);

} // namespace toold::builtins
