// Replacing a file's content all at once: the new bytes go to a temporary file in the same
// directory, which is flushed to disk and renamed over the target. A crash leaves the old file or
// the new one, never a mix, and readers never see a half-written file.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <sys/types.h>

namespace toold::core {

/// Writes `content` to `target` atomically, creating the file with `mode` (subject to the umask)
/// when it does not exist yet. The directory must exist. Returns an empty string on success, else
/// what failed with the system's reason; on failure the target is untouched and no temporary file
/// is left behind.
std::string writeFileAtomically(const std::filesystem::path& target, std::string_view content, mode_t mode);

} // namespace toold::core
