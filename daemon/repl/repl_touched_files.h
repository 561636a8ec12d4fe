// The workspace files a REPL session's calls named, as they were before the first call that named
// them: `:record` writes them as `%file` lines, so the fixture replays in a fresh, empty workspace.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace toold::repl {

using nlohmann::json;

struct WorkspaceFile {
  std::string path; ///< relative to the workspace, '/'-separated
  std::string content;
};

class TouchedFiles {
public:
  explicit TouchedFiles(std::filesystem::path workspace);

  /// Keeps the current content of what a call's input names, before the call runs: every string
  /// that is (or whose words are) a path of the workspace: a file, or a folder and the files
  /// below it. `list`, `glob` and `grep` without a path search the whole workspace. Only the
  /// first touch of a path counts: what the session itself made later is not kept.
  void touchInput(const std::string& tool, const json& input);
  /// Keeps `path` (relative to the workspace, or absolute inside it) if it exists and was not
  /// touched before; true when it names something in the workspace.
  bool touch(const std::string& path);

  /// What was kept, in the order it was first touched.
  const std::vector<WorkspaceFile>& files() const { return files_; }
  /// Files that were touched but not kept: too large, too many, or a name a `%file`
  /// line cannot hold.
  std::size_t leftOut() const { return leftOut_; }

private:
  void keepTree(const std::filesystem::path& folder);
  void keepFile(const std::filesystem::path& file, const std::string& relative);
  /// The path relative to the workspace, or empty when it is outside (or is the workspace).
  std::string relativeOf(const std::filesystem::path& path) const;

  std::filesystem::path workspace_;
  std::set<std::string> seen_; ///< relative paths touched, existing or not ("" is the workspace)
  std::vector<WorkspaceFile> files_;
  std::size_t keptBytes_ = 0;
  std::size_t leftOut_ = 0;
};

} // namespace toold::repl
