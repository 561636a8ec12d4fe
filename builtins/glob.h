// `glob`: the files whose path matches a gitignore-style glob, newest first.
#pragma once

#include "core/tools/tool.h"

namespace toold::builtins {

core::Tool makeGlobTool();

} // namespace toold::builtins
