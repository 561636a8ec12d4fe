// file:// URIs, the names language servers give files, and the paths toold knows them by.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace toold::core {

/// The path a file:// URI names, percent-decoded: `file:///a%20b` → `/a b`. The authority must be
/// empty or `localhost`, the path absolute; a query or fragment is dropped; an escape that is not
/// `%` and two hex digits stays as written. Any other scheme (`untitled:`, `jdt://`), another
/// host, or a path holding NUL → nullopt. `file:///C%3A/x` decodes to the path `/C:/x`.
std::optional<std::filesystem::path> pathFromFileUri(std::string_view uri);

/// The file:// URI of a path, encoded as VS Code does: [A-Za-z0-9-._~/] kept, every other byte
/// of the path's UTF-8 as `%XX` (upper-case hex). pathFromFileUri undoes it exactly.
std::string fileUriFromPath(const std::filesystem::path& path);

} // namespace toold::core
