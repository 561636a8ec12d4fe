#include "core/checkpoint/kept_paths.h"

namespace toold::core {

std::string_view leafOf(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string_view folderOf(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string_view() : path.substr(0, slash);
}

KeptPaths::KeptPaths(std::filesystem::path rootPath, IgnoreOptions options, bool respectIgnores)
    : rootPath_(std::move(rootPath)), rootText_(rootPath_.string()), options_(std::move(options)),
      respectIgnores_(respectIgnores) {
  if (options_.ceiling.empty()) options_.ceiling = rootPath_;
}

std::string KeptPaths::absolute(const std::string& path) const {
  return path.empty() ? rootText_ : rootText_ + "/" + path;
}

// The walker builds a folder's stack from its parent's by reading the folder's ignore files; the
// same here, by path, from the root's (which also holds the repository's and the user's excludes).
std::shared_ptr<const IgnoreStack> KeptPaths::stackOf(const std::string& folder) {
  if (auto found = stacks_.find(folder); found != stacks_.end()) return found->second;
  std::shared_ptr<const IgnoreStack> stack = folder.empty() ? IgnoreStack::forRoot(rootPath_, options_)
                                                            : stackOf(std::string(folderOf(folder)))->enter(absolute(folder));
  stacks_.emplace(folder, stack);
  return stack;
}

bool KeptPaths::keptIn(const std::string& path, bool isFolder) {
  if (isFolder && leafOf(path) == ".git") return false;
  if (!respectIgnores_) return true;
  return stackOf(std::string(folderOf(path)))->matchAbsolute(absolute(path), isFolder) != IgnoreMatch::Ignore;
}

bool KeptPaths::kept(const std::string& path, bool isFolder) {
  for (std::size_t slash = path.find('/'); slash != std::string::npos; slash = path.find('/', slash + 1))
    if (!keptIn(path.substr(0, slash), true)) return false;
  return keptIn(path, isFolder);
}

} // namespace toold::core
