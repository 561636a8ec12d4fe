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

/// The files and folders whose path starts with `word` (relative to the working directory, or
/// absolute), folders with a '/' after them; hidden ones only when the name's start is a '.'.
std::vector<std::string> fileCompletions(const std::string& word);

/// What libedit adds after the completed word: nothing after a folder's '/' or a parameter's
/// '=' (more follows at once), a blank after anything else.
char appendedAfter(const std::vector<std::string>& matches);

/// Hooks completion into libedit. The catalog must outlive the line editor.
void installCompletion(const ToolCatalog& catalog);

} // namespace toold::repl
