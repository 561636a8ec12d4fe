#include "core/lsp/project_folders.h"

namespace toold::core {

namespace fs = std::filesystem;

fs::path normalFolder(const fs::path& path) {
  fs::path normal = path.lexically_normal();
  if (!normal.has_filename() && normal.has_relative_path()) normal = normal.parent_path();
  return normal;
}

std::vector<fs::path> foldersUpToWorkspace(const fs::path& file, const fs::path& workspace) {
  const fs::path top = normalFolder(workspace);
  fs::path folder = normalFolder((file.is_absolute() ? file : top / file).parent_path());
  const fs::path relative = folder.lexically_relative(top);
  if (relative.empty() || *relative.begin() == "..") return {top};
  std::vector<fs::path> folders;
  for (; folder != top && folder.has_relative_path(); folder = folder.parent_path()) folders.push_back(folder);
  folders.push_back(top);
  return folders;
}

} // namespace toold::core
