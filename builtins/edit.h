// `edit`: replaces one exact (or safely tolerated) occurrence of a string in a file, or every one.
#pragma once

#include "builtins/file_tools.h"
#include "core/tools/tool.h"

#include <memory>

namespace toold::builtins {

core::Tool makeEditTool(std::shared_ptr<FileTools> files);

} // namespace toold::builtins
