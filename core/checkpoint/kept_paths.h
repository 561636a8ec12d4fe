// Which paths of a workspace checkpoints keep: those the walker keeps (core/walk: .gitignore at every
// level, .ignore, the repository's exclude file, the user's excludes file), and never a `.git`
// folder or anything in it. The walk that sets up the watches judges its own entries; this judges
// the single paths a watcher event or a file tool names, with each folder's rules built on first
// use and kept, so a burst of events in one folder reads its ignore files once.
#pragma once

#include "core/walk/ignore_rules.h"

#include <filesystem>
#include <memory>
#include <string>
#include <unordered_map>

namespace toold::core {

class KeptPaths {
public:
  /// `respectIgnores` false: every path but `.git` is kept. Not thread-safe: its owner locks.
  KeptPaths(std::filesystem::path rootPath, IgnoreOptions options, bool respectIgnores);

  /// `path` (workspace-relative) in a folder already known to be kept: only its own name is judged.
  bool keptIn(const std::string& path, bool isFolder);
  /// `path` with every folder on the way judged too.
  bool kept(const std::string& path, bool isFolder);
  /// An ignore file changed: rules are read again when next needed.
  void forget() { stacks_.clear(); }

  static bool isIgnoreFileName(std::string_view name) { return name == ".gitignore" || name == ".ignore"; }

private:
  std::shared_ptr<const IgnoreStack> stackOf(const std::string& folder);
  std::string absolute(const std::string& path) const;

  std::filesystem::path rootPath_;
  std::string rootText_;
  IgnoreOptions options_;
  bool respectIgnores_;
  std::unordered_map<std::string, std::shared_ptr<const IgnoreStack>> stacks_;
};

/// The last component of a '/'-separated path, and the folder holding it ("" for the root's entries).
std::string_view leafOf(std::string_view path);
std::string_view folderOf(std::string_view path);

} // namespace toold::core
