// `read`: a file's lines, numbered, in pages; a directory's entries; an image or PDF as a file item.
#pragma once

#include "builtins/file_tools.h"
#include "core/tools/tool.h"

#include <memory>

namespace toold::builtins {

core::Tool makeReadTool(std::shared_ptr<FileTools> files);

} // namespace toold::builtins
