// A fresh temporary directory per fixture run, holding toold's workspace, its data dir, a third
// directory outside both, the stdin file of file mode and the stderr logs. Removed afterwards,
// unless kept for a failure.
#pragma once

#include <filesystem>

namespace toold::fixture {

class ScratchDir {
public:
  /// Creates `$TMPDIR/toold-fixture-XXXXXX` with `workspace/`, `data/` and `outside/` in it. Throws
  /// std::runtime_error. Paths are canonical, so they equal what toold reports.
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::filesystem::path& root() const { return root_; }
  const std::filesystem::path& workspace() const { return workspace_; }
  const std::filesystem::path& data() const { return data_; }
  /// Neither the workspace nor the data directory, nor inside them: for tests of their bounds.
  const std::filesystem::path& outside() const { return outside_; }

  /// Leaves the directory in place when this is destroyed.
  void keep() { keep_ = true; }

private:
  std::filesystem::path root_;
  std::filesystem::path workspace_;
  std::filesystem::path data_;
  std::filesystem::path outside_;
  bool keep_ = false;
};

} // namespace toold::fixture
