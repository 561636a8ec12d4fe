// `write`: creates a file, or replaces a file the session has read, whole.
#pragma once

#include "builtins/file_tools.h"
#include "core/tools/tool.h"

#include <memory>

namespace toold::builtins {

core::Tool makeWriteTool(std::shared_ptr<FileTools> files);

} // namespace toold::builtins
