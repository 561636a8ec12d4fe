// Which files a search skips, decided as git decides it, so that the model sees the files a
// developer sees: .gitignore files at every level (also outside a git repository), `.ignore`
// files (ripgrep's, which win over .gitignore in the same folder), the repository's
// `.git/info/exclude`, and the user's excludes file (`core.excludesFile` from git's config, else
// `$XDG_CONFIG_HOME/git/ignore`).
//
// Each folder's rules are one node pointing to its parent's, shared and immutable, so the threads
// of a parallel walk can each descend with their own chain. A path is judged by the deepest folder
// first: in each folder `.ignore` then `.gitignore`, within a file the last matching line; the
// first rule that matches decides (Ignore, or Whitelist for a `!pattern`); the repository's
// exclude file and then the user's come last. A folder that is ignored is not entered, so nothing
// below it can be re-included — git's own rule.
#pragma once

#include "core/walk/glob_pattern.h"

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace toold::core {

enum class IgnoreMatch { None, Ignore, Whitelist };

/// The rules of one file in gitignore syntax, relative to the folder `base`.
///
/// Per line: blank lines and lines starting with `#` are skipped (`\#` is a literal '#');
/// trailing spaces are dropped unless escaped with '\'; a leading `!` negates (`\!` is a literal
/// '!'); a trailing '/' matches folders only; a pattern with a '/' at its start or in its middle
/// is anchored to `base` (a leading '/' is then dropped); without one it matches a name at any
/// depth below `base`. `**` as in GlobPattern; braces are literal, as in git. A UTF-8 BOM and
/// the '\r' of CRLF line ends are dropped, as git drops them.
class IgnoreFile {
public:
  IgnoreFile() = default;
  /// Parses `content`. Lines that do not compile as globs are skipped (git skips them too), and
  /// reported in `problems` as "<source>:<line>: <why>".
  static IgnoreFile parse(std::string_view content, std::filesystem::path base, std::string source,
                          std::vector<std::string>* problems = nullptr);
  /// Reads and parses the file at `path` for the folder `base`; an absent or unreadable file has no rules.
  static IgnoreFile read(const std::filesystem::path& path, std::filesystem::path base,
                         std::vector<std::string>* problems = nullptr);

  /// `path` is absolute; a path not below `base` matches nothing. The last matching rule decides.
  IgnoreMatch match(const std::filesystem::path& path, bool isDirectory) const;
  /// The same for a path known to be absolute and clean (no ".", "..", or trailing '/'), as a
  /// walk builds them: no path object is made.
  IgnoreMatch matchAbsolute(const std::string& path, bool isDirectory) const;
  bool empty() const { return rules_.empty(); }

private:
  struct Rule {
    GlobPattern glob;
    bool negated = false;
    bool directoryOnly = false;
    bool anchored = false; ///< matched against the path relative to base, else against each name's tail
  };
  /// The part of absolute `path` below base_ ("" for base_ itself), or false when not below it.
  bool relative(const std::string& path, std::string_view& out) const;
  IgnoreMatch matchRelative(std::string_view relativePath, bool isDirectory) const;
  std::filesystem::path base_;
  std::string basePrefix_; ///< base_ as text with a trailing '/', for the prefix test
  std::vector<Rule> rules_;
};

struct IgnoreOptions {
  bool gitIgnore = true;      ///< .gitignore files, .git/info/exclude, the user's excludes file
  bool dotIgnore = true;      ///< .ignore files
  /// Outside a git repository, the folder from which parents' ignore files apply (the workspace):
  /// a search rooted in `ceiling/src` still honours `ceiling/.gitignore`. Empty: only the root's own.
  std::filesystem::path ceiling;
};

/// One folder's rules chained to its parent's. Immutable; share it freely between threads.
class IgnoreStack {
public:
  /// The stack for a walk rooted at `root` (a folder): the user's excludes file and, when `root`
  /// is inside a git repository, its `.git/info/exclude`; then the .gitignore/.ignore files of
  /// every folder from the repository's root (or, outside a repository, from `root` itself) down
  /// to `root`, so that a search in `src/` still honours the top-level .gitignore.
  static std::shared_ptr<const IgnoreStack> forRoot(const std::filesystem::path& root, const IgnoreOptions& options);

  /// The stack for the folder `directory`, a child of this one's folder: reads its .ignore and
  /// .gitignore. Returns this stack itself (shared) when the folder has neither.
  std::shared_ptr<const IgnoreStack> enter(const std::filesystem::path& directory) const;
  /// The same for a walk: `directory` absolute and clean, open as `folder`, whose ignore files are
  /// read through it. Neither costs a lookup of the folder's path, which is linear in its depth:
  /// entering every folder of a deep chain by path made walks quadratic.
  std::shared_ptr<const IgnoreStack> enterAt(const std::string& directory, int folder) const;

  /// Judges `path` (absolute and clean, as a walk builds it): matchAbsolute for every file.
  IgnoreMatch matchAbsolute(const std::string& path, bool isDirectory) const;

  /// Judges `path` (absolute, below this stack's folder or the folder itself).
  IgnoreMatch match(const std::filesystem::path& path, bool isDirectory) const;

  const std::filesystem::path& directory() const { return directory_; }

private:
  IgnoreStack() = default;
  /// This stack itself when neither file has rules, else a child node for `folder` holding them.
  std::shared_ptr<const IgnoreStack> withFiles(const std::filesystem::path& folder, IgnoreFile dotIgnore,
                                               IgnoreFile gitIgnore) const;
  std::shared_ptr<const IgnoreStack> parent_;
  std::filesystem::path directory_;
  IgnoreFile dotIgnore_;
  IgnoreFile gitIgnore_;
  std::shared_ptr<const std::vector<IgnoreFile>> globals_; ///< repo exclude, then the user's: the lowest precedence
  IgnoreOptions options_;
  std::weak_ptr<const IgnoreStack> self_; ///< what enter() hands back when a folder adds no rules
};

/// The user's excludes file: `core.excludesFile` as git reads its config files —
/// `$XDG_CONFIG_HOME/git/config` (or `~/.config/git/config`), then `~/.gitconfig`, then the
/// repository's `.git/config`, the last that sets it winning — with `~` expanded; when none sets
/// it, `$XDG_CONFIG_HOME/git/ignore` (or `~/.config/git/ignore`). Empty when that file does not
/// exist. `repository` (the folder holding `.git`) may be empty: outside a repository. A relative
/// value is taken relative to `repository` (where git runs). Only `[core]` sections count
/// (`[include]`, the system config and $GIT_CONFIG_GLOBAL are not read); a `.git` file's
/// `gitdir:` and a worktree's `commondir` are followed to find the repository's config.
std::filesystem::path userExcludesFile(const std::filesystem::path& repository);

} // namespace toold::core
