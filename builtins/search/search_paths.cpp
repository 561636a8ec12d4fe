#include "builtins/search/search_paths.h"

#include <fcntl.h>
#include <thread>

namespace toold::builtins {

std::variant<PathFilter, std::string> PathFilter::compile(std::string_view glob, const std::filesystem::path& root) {
  std::string text(glob);
  const std::string prefix = root.string() + "/";
  if (text.starts_with(prefix)) text.erase(0, prefix.size());
  bool anchored = false;
  while (text.starts_with("./")) text.erase(0, 2);
  if (text.starts_with("/")) {
    text.erase(0, 1);
    anchored = true;
  }
  if (text.empty()) return std::string("the pattern is empty");
  auto compiled = core::GlobPattern::compile(text);
  if (auto* error = std::get_if<std::string>(&compiled)) return *error;
  const bool byName = !anchored && text.find('/') == std::string::npos;
  return PathFilter(std::get<core::GlobPattern>(std::move(compiled)), byName);
}

bool PathFilter::matches(std::string_view relative) const {
  if (!byName_) return glob_.matches(relative);
  const auto slash = relative.rfind('/');
  return glob_.matches(slash == std::string_view::npos ? relative : relative.substr(slash + 1));
}

bool PathFilter::matches(const core::WalkEntry& entry) const { return matches(std::string_view(entry.relative)); }

std::int64_t modificationTimeNs(const std::filesystem::path& path) {
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0) return 0;
  return static_cast<std::int64_t>(status.st_mtim.tv_sec) * 1'000'000'000 + status.st_mtim.tv_nsec;
}

std::int64_t modificationTimeNs(const core::WalkEntry& entry) {
  struct stat status {};
  // name() ends the entry's relative path, a std::string, so its data is NUL-terminated.
  if (entry.folderFd < 0 || ::fstatat(entry.folderFd, entry.name().data(), &status, 0) != 0)
    return modificationTimeNs(entry.path);
  return static_cast<std::int64_t>(status.st_mtim.tv_sec) * 1'000'000'000 + status.st_mtim.tv_nsec;
}

core::WalkOptions searchWalkOptions(const std::filesystem::path& workspace) {
  core::WalkOptions options;
  options.ignore.ceiling = workspace;
  // Asked once: glibc reads /sys/devices/system/cpu/online at every call, three system calls.
  static const unsigned cpus = std::thread::hardware_concurrency();
  options.threads = std::max(1u, std::min(cpus, 8u));
  return options;
}

} // namespace toold::builtins
