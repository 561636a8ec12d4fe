// The block of a file most like a find that matched nowhere, for the edit tool's error message.
// Private to builtins/edit.
#pragma once

#include "builtins/edit/edit_matcher.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace toold::builtins::edit {

/// The window of the find's line count (the whole file when shorter) with the most non-blank lines
/// equal, once trimmed, to the find's line at the same position; the first of equally good ones.
/// O(file lines) through a map of the find's trimmed lines (approximate, by lines occurring
/// anywhere in the find, when the find repeats lines very often). nullopt when no non-blank line
/// is equal. `trimmedFileLines` are the file's lines trimmed of whitespace at both ends.
std::optional<ClosestBlock> closestBlock(std::span<const std::string_view> fileLines,
                                         std::span<const std::string> trimmedFileLines,
                                         std::span<const std::string_view> findLines);

} // namespace toold::builtins::edit
