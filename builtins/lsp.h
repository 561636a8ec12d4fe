// `lsp`: asks the workspace's language servers about code — definitions, references, hover,
// outlines, symbols, call hierarchies — and answers in compact text with workspace-relative
// paths. Offered only where a language server serves the workspace's files.
#pragma once

#include "builtins/file_tools.h"
#include "core/tools/tool.h"

#include <memory>

namespace toold::builtins {

core::Tool makeLspTool(std::shared_ptr<FileTools> files);

/// The LSP character (UTF-16 units) of the 1-based `column`, counted in characters (code points)
/// of `line` as read shows it; a column past the end is the end.
int utf16Character(std::string_view line, int column);

} // namespace toold::builtins
