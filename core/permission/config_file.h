// Reading toold.json's text, once for every section's reader: a file that cannot be opened or
// read (a directory opens, then fails with EISDIR) is a ConfigError naming it.
#pragma once

#include <filesystem>
#include <string>

namespace toold::core {

/// The bytes of `path`; throws ConfigError (`<displayName>: cannot read: <why>`).
std::string readConfigFile(const std::filesystem::path& path, const std::string& displayName);

} // namespace toold::core
