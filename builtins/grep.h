// `grep`: the lines of files that match a regular expression, newest files first.
#pragma once

#include "core/tools/tool.h"

namespace toold::builtins {

core::Tool makeGrepTool();

} // namespace toold::builtins
