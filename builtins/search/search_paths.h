// What glob and grep share about where they search: resolving the `path` the model gave (the
// workspace when absent), and matching a gitignore-style glob the way `rg --glob` does — against
// the file's name when the glob has no '/', else against its path relative to the search root.
#pragma once

#include "core/walk/glob_pattern.h"
#include "core/walk/walker.h"

#include <string>
#include <string_view>
#include <sys/stat.h>

namespace toold::builtins {

/// A compiled file filter for `glob`'s pattern or `grep`'s include.
class PathFilter {
public:
  /// `glob` may start with "./" or "/" (anchored at the root), or with the root itself followed by
  /// "/" (models send absolute patterns); both are taken relative to the root.
  static std::variant<PathFilter, std::string> compile(std::string_view glob, const std::filesystem::path& root);
  bool matches(const core::WalkEntry& entry) const;
  bool matches(std::string_view relative) const;

private:
  explicit PathFilter(core::GlobPattern glob, bool byName) : glob_(std::move(glob)), byName_(byName) {}
  core::GlobPattern glob_;
  bool byName_;
};

/// The modification time of `path` in nanoseconds (following links), 0 when it cannot be stat'ed.
std::int64_t modificationTimeNs(const std::filesystem::path& path);
/// The same for an entry being visited, through its open folder (no path lookup).
std::int64_t modificationTimeNs(const core::WalkEntry& entry);

/// The walk options every search uses: both cores, the ignore files honoured (outside a git
/// repository, from `workspace` down), links not followed.
core::WalkOptions searchWalkOptions(const std::filesystem::path& workspace = {});

} // namespace toold::builtins
