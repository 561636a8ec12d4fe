// The flow `edit` and `multiedit` share: validate the edits, create the file when the first
// oldString is empty, else apply the edits through the single-file change path, and report.
#pragma once

#include "builtins/edit/text_edits.h"
#include "builtins/file_tools.h"
#include "core/tools/tool.h"

#include <memory>
#include <string>
#include <vector>

namespace toold::builtins {

/// Runs `edits` on `filePath`. An empty oldString is allowed only in the first edit: it creates
/// the file (or, with a current read stamp, replaces it whole) with that edit's newString, and the
/// remaining edits apply to the result.
void runEditCall(const std::shared_ptr<FileTools>& files, const core::ToolContext& context, const std::string& filePath,
                 std::vector<TextEdit> edits, const core::ToolDone& done);

} // namespace toold::builtins
