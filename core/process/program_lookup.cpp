#include "core/process/program_lookup.h"

#include <sys/stat.h>
#include <unistd.h>

namespace toold::core {

namespace fs = std::filesystem;

namespace {

bool isExecutableFile(const std::string& path) {
  struct stat status {};
  return ::stat(path.c_str(), &status) == 0 && S_ISREG(status.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

} // namespace

std::optional<std::string> findProgram(const std::string& name, const fs::path& cwd, std::string_view pathList) {
  if (name.empty()) return std::nullopt;
  if (name.find('/') != std::string::npos) {
    const fs::path program = fs::path(name).is_absolute() || cwd.empty() ? fs::path(name) : cwd / name;
    if (isExecutableFile(program)) return program.string();
    return std::nullopt;
  }
  std::string_view rest = pathList;
  while (true) {
    const auto colon = rest.find(':');
    std::string folder(rest.substr(0, colon));
    if (folder.empty()) folder = ".";
    const std::string candidate = (fs::path(folder).is_absolute() || cwd.empty() ? fs::path(folder) : cwd / folder) / name;
    if (isExecutableFile(candidate)) return candidate;
    if (colon == std::string_view::npos) return std::nullopt;
    rest.remove_prefix(colon + 1);
  }
}

fs::path ownExecutableFolder() {
  std::error_code ec;
  const auto self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  return self.parent_path();
}

} // namespace toold::core
