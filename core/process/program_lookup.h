// Finding the program a command names, as execvp would: a name with a '/' is that file (relative
// to the command's folder), any other name the first executable match in a PATH-like list.
// Knowing the file before starting it lets the sandbox open it to the launcher, and lets the
// language servers and formatters that are not installed be left out instead of failing to start.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace toold::core {

/// The executable regular file `name` runs, searched in `pathList` (colon-separated; an empty
/// entry is the current folder, as execvp takes it); a relative folder or name is taken from
/// `cwd` (empty: the process's own). nullopt when nothing executable is found.
std::optional<std::string> findProgram(const std::string& name, const std::filesystem::path& cwd,
                                       std::string_view pathList);

/// The folder holding the running executable (the parent of /proc/self/exe), where toold's own
/// helper programs and modules are installed beside it; empty when /proc/self/exe cannot be read.
std::filesystem::path ownExecutableFolder();

} // namespace toold::core
