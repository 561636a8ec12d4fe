// mkdtemp gives a unique, private directory even when several runners work in parallel (ctest -j).
#include "scratch_dir.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

namespace toold::fixture {

ScratchDir::ScratchDir() {
  std::string templ = (std::filesystem::temp_directory_path() / "toold-fixture-XXXXXX").string();
  if (::mkdtemp(templ.data()) == nullptr)
    throw std::runtime_error("cannot create a directory like " + templ + ": " + std::strerror(errno));
  root_ = std::filesystem::canonical(templ);
  workspace_ = root_ / "workspace";
  data_ = root_ / "data";
  outside_ = root_ / "outside";
  std::filesystem::create_directory(workspace_);
  std::filesystem::create_directory(data_);
  std::filesystem::create_directory(outside_);
}

ScratchDir::~ScratchDir() {
  if (keep_) return;
  std::error_code ignored;
  std::filesystem::remove_all(root_, ignored);
}

} // namespace toold::fixture
