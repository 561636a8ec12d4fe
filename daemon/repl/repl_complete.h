// Tab completion at the prompt: meta-commands, toold's methods and the snapshot's tools as the
// first word; a tool's parameter names (`key=`) after its name; file paths as the value of a
// parameter that names a path.
#pragma once

#include "daemon/repl/repl_catalog.h"

#include <string>
#include <vector>

namespace toold::repl {

/// What completes `word`, given the line before it (`before` ends where `word` starts).
std::vector<std::string> completionsFor(const ToolCatalog& catalog, const std::string& before, const std::string& word);

/// Hooks completion into libedit. The catalog must outlive the line editor.
void installCompletion(const ToolCatalog& catalog);

} // namespace toold::repl
