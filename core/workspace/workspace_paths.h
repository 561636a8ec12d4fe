// The one place a path a tool was given becomes a real location, and where it is decided whether
// that location is inside the workspace. Every file tool resolves through here, so the checks that
// matter cannot drift apart between tools.
//
// Containment is decided on the fully resolved path, never on the text: a lexical check lets
// `link/../x` and symlinks pointing elsewhere through, a string-prefix check lets `/w/ws-evil` pass
// for `/w/ws`, and an existence-based check (realpath of what exists) lets a dangling symlink
// pointing outside pass as the not-yet-existing file it names. Each of those escapes has been seen
// in real tool servers. Here every component is lstat'ed and every symlink followed, whether or not
// its target exists.
//
// Resolution is a snapshot: the file system may change before the tool acts. Tools never act on
// the text they were given, nor on `canonical` as a string: they hold it with core/workspace/held_location.h,
// which opens `canonical` without following any symlink, so that what was checked is what is
// touched, or nothing is.
#pragma once

#include "core/base/unique_fd.h"
#include "core/permission/permission_ask.h"
#include "core/tools/tool.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <sys/stat.h>

namespace toold::core {

/// A path a tool was given, resolved.
struct ResolvedPath {
  /// The text as given, `~` expanded and made absolute against the workspace directory, nothing
  /// else: for messages, so the model recognises what it asked for.
  std::filesystem::path given;
  /// Every symlink, `.` and `..` resolved; the part that does not exist (yet) appended as written.
  std::filesystem::path canonical;
  bool exists = false; ///< `canonical` exists now
  bool isDirectory = false;
  /// Within the Location's directory, or within its git worktree unless that is `/`.
  bool inside = false;
  /// Within `<dataDir>/tool-output/`, toold's own store of truncated outputs: tools may read it
  /// (the default rules let them) but never change it, or one call could rewrite another's output.
  bool inToolOutput = false;
  /// The Location's held workspace folder (Location::root), from which a path below it is held;
  /// null without one.
  std::shared_ptr<const WorkspaceRoot> root;
};

/// A path that cannot be resolved at all. The message is written for the model.
struct PathError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Resolves `path` for a tool acting in `location` (see the file comment). `~` and `~/...` expand
/// to the home directory; `~user` and a `~` anywhere else are literal. A relative path is taken
/// against `location.directory`. Throws PathError for an empty path, a NUL byte, a `~` with no
/// home directory known, or more than 40 symlink expansions (a loop).
ResolvedPath resolveToolPath(std::string_view path, const Location& location);

/// What resolving learnt on the fast way (a clean absolute path whose folders openat2 reaches with
/// RESOLVE_NO_SYMLINKS, from the Location's held root when the path is below it): the folder, opened O_RDONLY | O_DIRECTORY
/// (or, for the workspace folder itself, the root's O_PATH descriptor, borrowed: never flush or
/// list through it), and the leaf's lstat (none when the leaf does not exist). Empty when the path
/// took the long way.
struct ResolvedFolder {
  UniqueFd folder;
  std::optional<struct stat> leaf;
};

/// resolveToolPath, resolving the fast way by opening the path's folder and looking at the leaf
/// in it, and handing both to `found` (see core/workspace/held_location.h: holdResolvedFolder).
ResolvedPath resolveToolPath(std::string_view path, const Location& location, ResolvedFolder& found);

/// Opens the absolute `path` with `flags` by one openat2 that follows no symlink anywhere on the
/// way (RESOLVE_NO_SYMLINKS). -1 for any failure, a symlink met included, and on a kernel or
/// library without openat2: callers then work the path out component by component.
int openWithoutSymlinks(const std::string& path, int flags);

/// True when `candidate` is `root` or below it, compared component by component (never as a string
/// prefix: `/w/a` does not contain `/w/ab`). Both must be canonical; an empty root contains nothing.
bool pathContains(const std::filesystem::path& root, const std::filesystem::path& candidate);
/// The same over the paths' text, where the caller has no path objects to hand.
bool pathTextContains(std::string_view root, std::string_view candidate);
/// What follows `root` in `candidate` when pathTextContains(root, candidate): the rest of its text
/// without its leading slashes (empty for the root itself); nullopt when `root` does not contain it.
std::optional<std::string_view> textBelow(std::string_view root, std::string_view candidate);
/// Whether `path` is written as a canonical path is: absolute, no empty, `.` or `..` component,
/// no trailing slash (what resolving returns).
bool isCleanAbsolute(std::string_view path);

/// The git worktree holding `directory`: the nearest ancestor, or itself, with a `.git` directory
/// or file (a linked worktree or submodule has a file); empty when there is none. Canonical.
std::filesystem::path findWorktree(const std::filesystem::path& directory);

/// What the tool will treat the path as, which decides the folder an outside access is asked for.
enum class PathKind { File, Directory };

/// The `external_directory` ask for a path outside the workspace; nullopt when it is inside. The
/// resource, and the pattern an "always" reply saves, is `<dir>/*` where `dir` is the canonical
/// path itself for a Directory and its parent for a File. The metadata shows the person deciding
/// both what the model named and where it really leads: {"filepath", "resolved", "parentDir"}.
std::optional<PermissionAsk> externalDirectoryAsk(const ResolvedPath& path, PathKind kind);

/// The canonical path relative to the Location's directory with forward slashes (`src/a.ts`, or
/// `.` for the directory itself), as permission resources name workspace files; the canonical
/// absolute path when it is not below the directory (outside, or elsewhere in the worktree).
std::string workspaceRelative(const ResolvedPath& path, const Location& location);

} // namespace toold::core
