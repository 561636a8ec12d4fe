// A fresh temporary directory per fixture run, holding toold's workspace, its data dir, the
// stdin file of file mode and the stderr log. Removed afterwards, unless kept for a failure.
#pragma once

#include <filesystem>

namespace toold::fixture {

class ScratchDir {
public:
  /// Creates `$TMPDIR/toold-fixture-XXXXXX` with `workspace/` and `data/` in it. Throws
  /// std::runtime_error. Paths are canonical, so they equal what toold reports.
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::filesystem::path& root() const { return root_; }
  const std::filesystem::path& workspace() const { return workspace_; }
  const std::filesystem::path& data() const { return data_; }

  /// Leaves the directory in place when this is destroyed.
  void keep() { keep_ = true; }

private:
  std::filesystem::path root_;
  std::filesystem::path workspace_;
  std::filesystem::path data_;
  bool keep_ = false;
};

} // namespace toold::fixture
