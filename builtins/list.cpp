#include "builtins/list.h"

#include "builtins/tool_support.h"
#include "core/wildcard.h"

#include <algorithm>
#include <deque>
#include <map>
#include <set>

namespace toold::builtins {

namespace {

namespace fs = std::filesystem;
using core::json;

constexpr std::size_t kMaxFiles = 100;

// opencode's default ignores: folders of dependencies, build output, tooling state and caches.
const std::set<std::string, std::less<>> kIgnoredFolders = {
    "node_modules", "__pycache__", ".git", "dist",   "build",  "target", "vendor", "bin",
    "obj",          ".idea",       ".vscode", ".zig-cache", "zig-out", ".coverage", "coverage", "tmp",
    "temp",         ".cache",      "cache",   "logs",   ".venv",  "venv",   "env"};

const char* kDescription = R"(Lists the files under a directory as a tree.

Usage:
- path is the absolute path (or a path relative to the workspace) of the directory; it defaults to the workspace.
- Folders such as node_modules, .git, dist, build, target and vendor are skipped; add glob patterns to ignore more (e.g. "*.log", "docs/**").
- Shows at most 100 files, nearest first. Prefer the glob and grep tools when you know what you are looking for.)";

json inputSchema() {
  return json{{"type", "object"},
              {"properties",
               {{"path",
                 {{"type", "string"},
                  {"description", "The absolute path to the directory to list (defaults to the workspace)"}}},
                {"ignore",
                 {{"type", "array"}, {"items", {{"type", "string"}}}, {"description", "Glob patterns to ignore"}}}}},
              {"additionalProperties", false}};
}

struct Folder {
  std::map<std::string, Folder> folders;
  std::vector<std::string> files;
};

bool ignoredByPattern(const std::vector<std::string>& patterns, const std::string& relative, const std::string& name,
                      bool isFolder) {
  for (const auto& raw : patterns) {
    std::string pattern = raw;
    while (pattern.size() > 1 && pattern.back() == '/') pattern.pop_back();
    if (core::wildcardMatch(pattern, relative) || core::wildcardMatch(pattern, name)) return true;
    if (isFolder && (core::wildcardMatch(pattern, relative + "/") || core::wildcardMatch(pattern, relative + "/*")))
      return true;
  }
  return false;
}

void render(const Folder& folder, int depth, std::string& out) {
  const std::string indent(static_cast<std::size_t>(depth) * 2, ' ');
  for (const auto& [name, child] : folder.folders) {
    out += indent + name + "/\n";
    render(child, depth + 1, out);
  }
  for (const auto& file : folder.files) out += indent + file + "\n";
}

// Breadth first, each folder's entries sorted, so that the files nearest the root are the ones
// shown when the listing is cut.
void listResolved(const core::ResolvedPath& root, const std::vector<std::string>& ignore,
                  const core::CancellationToken& cancellation, const core::ToolDone& done) {
  Folder tree;
  std::size_t count = 0;
  bool truncated = false;
  std::deque<std::pair<fs::path, std::string>> queue{{root.canonical, ""}};
  while (!queue.empty() && !truncated) {
    if (cancellation.isCancelled()) return done(failure("The listing was cancelled."));
    auto [folder, relative] = queue.front();
    queue.pop_front();
    std::vector<std::pair<std::string, bool>> entries;
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
      std::error_code typeError;
      const bool isFolder = it->is_directory(typeError) && !it->is_symlink(typeError);
      entries.emplace_back(it->path().filename().string(), isFolder);
    }
    std::sort(entries.begin(), entries.end());
    for (const auto& [name, isFolder] : entries) {
      const std::string path = relative.empty() ? name : relative + "/" + name;
      if (isFolder && kIgnoredFolders.contains(name)) continue;
      if (ignoredByPattern(ignore, path, name, isFolder)) continue;
      if (isFolder) {
        queue.emplace_back(folder / name, path);
        continue;
      }
      if (count == kMaxFiles) {
        truncated = true;
        break;
      }
      ++count;
      Folder* node = &tree;
      for (std::size_t start = 0, slash; (slash = path.find('/', start)) != std::string::npos; start = slash + 1)
        node = &node->folders[path.substr(start, slash - start)];
      node->files.push_back(name);
    }
  }
  std::string text = root.given.lexically_normal().string();
  if (!text.ends_with('/')) text += "/";
  text += "\n";
  render(tree, 1, text);
  if (truncated)
    text += "\n(Showing the first " + std::to_string(kMaxFiles) +
            " files. Use a more specific path, ignore patterns, or the glob tool to see more.)";
  else if (count == 0)
    text += "\n(No files)";
  while (text.ends_with('\n')) text.pop_back();
  done(core::ToolResult{std::nullopt, json(text), json{{"count", count}, {"truncated", truncated}}});
}

} // namespace

core::Tool makeListTool() {
  auto execute = [](json input, core::ToolContext context, core::ToolDone done) {
    const std::string path = input.value("path", std::string("."));
    std::vector<std::string> ignore;
    if (input.contains("ignore"))
      for (const auto& pattern : input["ignore"]) ignore.push_back(pattern.get<std::string>());
    resolveWithBoundary(context, path.empty() ? "." : path, core::PathKind::Directory, done,
                        [=](core::ResolvedPath resolved) {
                          if (!resolved.exists) return done(failure("Directory not found: " + resolved.given.string()));
                          if (!resolved.isDirectory)
                            return done(failure(resolved.given.string() + " is not a directory; use the read tool for files."));
                          const std::string resource = core::workspaceRelative(resolved, *context.location);
                          context.assertPermission(
                              core::PermissionAsk{"list", {resource}, {"*"}, json{{"path", resolved.given.string()}}},
                              [=](std::optional<core::ToolCompletion> refusal) {
                                if (refusal) return done(std::move(*refusal));
                                listResolved(resolved, ignore, context.cancellation, done);
                              });
                        });
  };
  return workerTool(kDescription, inputSchema(), "list", false, std::move(execute));
}

} // namespace toold::builtins
