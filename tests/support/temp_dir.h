// A private temporary directory for one test, removed with everything in it afterwards — even
// when the test took permissions away inside it.
#pragma once

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace toold::testing {

class TempDir {
public:
  /// `<tmp>/<prefix>_XXXXXX`, created with mkdtemp (so mode 0700 and never shared); its path is
  /// canonical, so expected values compare equal to resolved ones even if the temp dir is a link.
  explicit TempDir(const std::string& prefix) {
    std::string pattern = (std::filesystem::temp_directory_path() / (prefix + "_XXXXXX")).string();
    if (::mkdtemp(pattern.data()) == nullptr)
      throw std::runtime_error("cannot create a temporary directory like " + pattern + ": " + std::strerror(errno));
    path_ = std::filesystem::canonical(pattern);
  }
  ~TempDir() {
    namespace fs = std::filesystem;
    std::error_code ignored;
    // Give back the owner's permissions on the folder and the folders in it, so all can go.
    fs::permissions(path_, fs::perms::owner_all, fs::perm_options::add, ignored);
    for (const auto& entry : fs::directory_iterator(path_, ignored))
      if (entry.is_directory(ignored) && !entry.is_symlink(ignored))
        fs::permissions(entry.path(), fs::perms::owner_all, fs::perm_options::add, ignored);
    fs::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }

private:
  std::filesystem::path path_;
};

} // namespace toold::testing
