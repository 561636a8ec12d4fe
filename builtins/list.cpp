#include "builtins/list.h"

#include "builtins/constant_json.h"
#include "builtins/search/search_paths.h"
#include "builtins/tool_support.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <set>

namespace toold::builtins {

namespace {

namespace fs = std::filesystem;
using core::json;

constexpr std::size_t kMaxFiles = 100;
constexpr std::size_t kMaxCollected = 10000; ///< files gathered before the nearest 100 are chosen

// opencode's default ignores: folders of dependencies, build output, tooling state and caches.
const std::set<std::string, std::less<>> kIgnoredFolders = {
    "node_modules", "__pycache__", ".git", "dist",   "build",  "target", "vendor", "bin",
    "obj",          ".idea",       ".vscode", ".zig-cache", "zig-out", ".coverage", "coverage", "tmp",
    "temp",         ".cache",      "cache",   "logs",   ".venv",  "venv",   "env"};

const char* kDescription = R"(Lists the files under a directory as a tree.

Usage:
- path is the absolute path (or a path relative to the workspace) of the directory; it defaults to the workspace.
- Files ignored by .gitignore or .ignore are skipped, and so are folders such as node_modules, .git, dist, build, target and vendor; add glob patterns to ignore more (e.g. "*.log", "docs/**", "fixtures/").
- Shows at most 100 files, nearest first. Prefer the glob and grep tools when you know what you are looking for.)";

constexpr auto kInputSchema = compactJson(R"json(
{
  "additionalProperties": false,
  "properties": {
    "ignore": {
      "description": "Glob patterns to ignore",
      "items": {
        "type": "string"
      },
      "type": "array"
    },
    "path": {
      "description": "The absolute path to the directory to list (defaults to the workspace)",
      "type": "string"
    }
  },
  "type": "object"
})json");

struct Folder {
  std::map<std::string, Folder> folders;
  std::vector<std::string> files;
};

void render(const Folder& folder, int depth, std::string& out) {
  const std::string indent(static_cast<std::size_t>(depth) * 2, ' ');
  for (const auto& [name, child] : folder.folders) {
    out += indent + name + "/\n";
    render(child, depth + 1, out);
  }
  for (const auto& file : folder.files) out += indent + file + "\n";
}

// The model's ignore patterns, gitignore-style: "*.log" by name anywhere, "docs/**" by path, a
// trailing '/' for folders only.
struct IgnorePattern {
  PathFilter filter;
  bool foldersOnly;
};

bool ignoredByModel(const std::vector<IgnorePattern>& patterns, const core::WalkEntry& entry) {
  for (const auto& pattern : patterns)
    if ((!pattern.foldersOnly || entry.isDirectory) && pattern.filter.matches(entry)) return true;
  return false;
}

// The walk is parallel and depth first, so it collects (up to a bound) and then keeps the files
// nearest the root: when the listing is cut, the top of the tree is what the model sees.
void listResolved(const core::ResolvedPath& root, const std::filesystem::path& workspace,
                  const std::vector<IgnorePattern>& ignore,
                  const core::CancellationToken& cancellation, const core::BoundingLimits& budget,
                  const core::ToolDone& done) {
  // The root is held as it was checked; the walk reaches everything below from its descriptor.
  auto held = core::holdLocation(root, core::HoldPurpose::Read);
  if (auto* error = std::get_if<std::string>(&held)) return done(failure(*error));
  auto folder = core::openHeldDirectory(std::get<core::HeldLocation>(held));
  if (auto* error = std::get_if<std::string>(&folder)) return done(failure(*error));
  std::mutex mutex;
  std::vector<std::pair<int, std::string>> files; // (depth, relative path)
  core::WalkOptions options = searchWalkOptions(workspace);
  options.skipFolderNames.assign(kIgnoredFolders.begin(), kIgnoredFolders.end());
  options.rootDirectory = std::get<core::UniqueFd>(folder).get();
  auto walk = core::walkTree(
      root.canonical, options,
      [&] {
        return [&](const core::WalkEntry& entry) {
          if (ignoredByModel(ignore, entry)) return core::WalkDecision::Skip;
          if (entry.isDirectory) return core::WalkDecision::Continue;
          std::lock_guard lock(mutex);
          files.emplace_back(entry.depth, entry.relative);
          return files.size() >= kMaxCollected ? core::WalkDecision::Quit : core::WalkDecision::Continue;
        };
      },
      cancellation);
  if (walk.cancelled) return done(failure("The listing was cancelled."));
  std::sort(files.begin(), files.end());
  if (files.size() > kMaxFiles) files.resize(kMaxFiles + 1); // one more than shown says "truncated"
  const std::size_t found = files.size();
  auto renderList = [&](std::size_t shown) {
    Folder tree;
    for (std::size_t i = 0; i < shown; ++i) {
      const auto& path = files[i].second;
      Folder* node = &tree;
      std::size_t start = 0;
      for (std::size_t slash; (slash = path.find('/', start)) != std::string::npos; start = slash + 1)
        node = &node->folders[path.substr(start, slash - start)];
      node->files.push_back(path.substr(start));
    }
    std::string text = root.given.lexically_normal().string();
    if (!text.ends_with('/')) text += "/";
    text += "\n";
    render(tree, 1, text);
    if (shown < found)
      text += "\n(Showing the first " + std::to_string(shown) +
              " files. Use a more specific path, ignore patterns, or the glob tool to see more.)";
    else if (found == 0)
      text += "\n(No files)";
    if (!walk.errors.empty()) text += "\n(Some paths were inaccessible and skipped)";
    while (text.ends_with('\n')) text.pop_back();
    return text;
  };
  // The answer fits the call's budget whole: the last files go first.
  std::size_t shown = std::min(found, kMaxFiles);
  std::string text = renderList(shown);
  while (shown > 1 && !core::withinLimits(text, budget)) text = renderList(--shown);
  const bool truncated = shown < found;
  files.resize(shown);
  done(core::ToolResult{std::nullopt, json(text), json{{"count", files.size()}, {"truncated", truncated}}});
}

} // namespace

core::Tool makeListTool() {
  auto execute = [](json input, core::ToolContext context, core::ToolDone done) {
    const std::string path = input.value("path", std::string("."));
    std::vector<std::string> ignoreText;
    if (input.contains("ignore"))
      for (const auto& pattern : input["ignore"]) ignoreText.push_back(pattern.get<std::string>());
    resolveWithBoundary(context, path.empty() ? "." : path, core::PathKind::Directory, done,
                        [=](core::ResolvedPath resolved) {
                          if (!resolved.exists) return done(failure("Directory not found: " + resolved.given.string()));
                          if (!resolved.isDirectory)
                            return done(failure(resolved.given.string() + " is not a directory; use the read tool for files."));
                          std::vector<IgnorePattern> ignore;
                          for (auto pattern : ignoreText) {
                            const bool foldersOnly = pattern.size() > 1 && pattern.ends_with('/');
                            if (foldersOnly) pattern.pop_back();
                            auto filter = PathFilter::compile(pattern, resolved.canonical);
                            if (auto* error = std::get_if<std::string>(&filter))
                              return done(failure("Invalid ignore pattern \"" + pattern + "\": " + *error));
                            ignore.push_back(IgnorePattern{std::get<PathFilter>(std::move(filter)), foldersOnly});
                          }
                          const std::string resource = core::workspaceRelative(resolved, *context.location);
                          context.assertPermission(
                              core::PermissionAsk{"list", {resource}, {"*"}, json{{"path", resolved.given.string()}}},
                              [=](std::optional<core::ToolCompletion> refusal) {
                                if (refusal) return done(std::move(*refusal));
                                listResolved(resolved, context.location->directory, ignore, context.cancellation, context.budget, done);
                              });
                        });
  };
  return workerTool(kDescription, kInputSchema.view(), "list", false, std::move(execute));
}

} // namespace toold::builtins
