// `list`: a tree of a directory's files, skipping the folders nobody wants to see (dependencies,
// build output, caches) and any `ignore` patterns the model adds.
#pragma once

#include "core/tools/tool.h"

namespace toold::builtins {

core::Tool makeListTool();

} // namespace toold::builtins
