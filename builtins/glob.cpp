#include "builtins/glob.h"

#include "builtins/constant_json.h"
#include "builtins/search/search_paths.h"
#include "builtins/tool_support.h"

#include <algorithm>
#include <mutex>

namespace toold::builtins {

namespace {

using core::json;

constexpr std::size_t kMaxResults = 100;

const char* kDescription = R"(Finds files by name pattern, newest first.

Usage:
- pattern is a glob: "*" matches within a name, "**" across folders, "?" one character, "[abc]" a class, "{ts,tsx}" alternatives. A pattern without "/" matches file names at any depth ("*.ts"); with "/" it matches paths from the search folder ("src/**/*.ts").
- path is the folder to search (default: the workspace). Omit it rather than sending "undefined" or "null".
- Files ignored by .gitignore or .ignore are skipped, hidden files are included, .git is not.
- Returns absolute paths, the 100 most recently modified first. Use grep to search file contents.)";

constexpr auto kInputSchema = compactJson(R"json(
{
  "additionalProperties": false,
  "properties": {
    "path": {
      "description": "The directory to search in (defaults to the workspace). Must be a directory.",
      "type": "string"
    },
    "pattern": {
      "description": "The glob pattern to match files against",
      "type": "string"
    }
  },
  "required": ["pattern"],
  "type": "object"
})json");

// The 100 newest of one thread's matches: a min-heap on (mtime, newer path first), so the oldest
// kept is on top and a newer match replaces it in O(log 100). Threads keep their own, with no lock,
// and the heaps are merged at the end. A match is judged before its path is copied: of a large
// tree's matches, only the few that are among the newest so far become strings.
struct Newest {
  std::vector<std::pair<std::int64_t, std::string>> heap;
  std::size_t total = 0;
  static bool newer(std::int64_t aTime, std::string_view aPath, std::int64_t bTime, std::string_view bPath) {
    return aTime != bTime ? aTime > bTime : aPath < bPath;
  }
  static bool newer(const std::pair<std::int64_t, std::string>& a, const std::pair<std::int64_t, std::string>& b) {
    return newer(a.first, a.second, b.first, b.second);
  }
  void offer(std::int64_t mtime, std::string_view path) {
    ++total;
    if (heap.size() == kMaxResults) {
      if (!newer(mtime, path, heap.front().first, heap.front().second)) return;
      std::pop_heap(heap.begin(), heap.end(), [](const auto& a, const auto& b) { return newer(a, b); });
      heap.back().first = mtime;
      heap.back().second.assign(path); // reuses the evicted path's buffer
    } else {
      heap.emplace_back(mtime, std::string(path));
    }
    std::push_heap(heap.begin(), heap.end(), [](const auto& a, const auto& b) { return newer(a, b); });
  }
};

void globIn(const core::ResolvedPath& root, const std::filesystem::path& workspace, const PathFilter& filter,
            const core::CancellationToken& cancellation, const core::BoundingLimits& budget, const core::ToolDone& done) {
  // The root is held as it was checked; the walk reaches everything below from its descriptor.
  auto held = core::holdLocation(root, core::HoldPurpose::Read);
  if (auto* error = std::get_if<std::string>(&held)) return done(failure(*error));
  auto folder = core::openHeldDirectory(std::get<core::HeldLocation>(held));
  if (auto* error = std::get_if<std::string>(&folder)) return done(failure(*error));
  core::WalkOptions options = searchWalkOptions(workspace);
  options.rootDirectory = std::get<core::UniqueFd>(folder).get();
  std::mutex mutex;
  std::vector<std::shared_ptr<Newest>> perThread;
  auto result = core::walkTree(
      root.canonical, options,
      [&] {
        auto mine = std::make_shared<Newest>();
        {
          std::lock_guard lock(mutex);
          perThread.push_back(mine);
        }
        return [&filter, mine](const core::WalkEntry& entry) {
          if (entry.isFile && filter.matches(entry)) mine->offer(modificationTimeNs(entry), entry.path);
          return core::WalkDecision::Continue;
        };
      },
      cancellation);
  if (result.cancelled) return done(failure("The search was cancelled."));
  std::vector<std::pair<std::int64_t, std::string>> files;
  std::size_t total = 0;
  for (const auto& newest : perThread) {
    total += newest->total;
    files.insert(files.end(), newest->heap.begin(), newest->heap.end());
  }
  std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) { return Newest::newer(a, b); });
  if (files.size() > kMaxResults) files.resize(kMaxResults);
  auto render = [&] {
    std::string text;
    for (const auto& file : files) text += (text.empty() ? "" : "\n") + file.second;
    if (files.empty()) text = "No files found";
    if (total > files.size())
      text += "\n\n(Results are truncated: showing the " + std::to_string(files.size()) + " most recently modified of " +
              std::to_string(total) + " files. Consider using a more specific path or pattern.)";
    if (!result.errors.empty()) text += "\n\n(Some paths were inaccessible and skipped)";
    return text;
  };
  // The answer fits the call's budget whole: the oldest of the files go first.
  std::string text = render();
  while (files.size() > 1 && !core::withinLimits(text, budget)) {
    files.pop_back();
    text = render();
  }
  const bool truncated = total > files.size();
  done(core::ToolResult{std::nullopt, json(text), json{{"count", files.size()}, {"total", total}, {"truncated", truncated}}});
}

} // namespace

core::Tool makeGlobTool() {
  auto execute = [](json input, core::ToolContext context, core::ToolDone done) {
    const auto pattern = input["pattern"].get<std::string>();
    const std::string path = input.value("path", std::string());
    if (pattern.empty()) return done(failure("pattern is required"));
    resolveWithBoundary(context, path.empty() ? "." : path, core::PathKind::Directory, done, [=](core::ResolvedPath root) {
      if (!root.exists) return done(failure("No such directory: " + root.given.string()));
      if (!root.isDirectory)
        return done(failure(root.given.string() +
                            " is a file, and glob searches a directory: give its folder as path, or read the file."));
      auto filter = PathFilter::compile(pattern, root.canonical);
      if (auto* error = std::get_if<std::string>(&filter))
        return done(failure("Invalid glob pattern \"" + pattern + "\": " + *error));
      context.assertPermission(
          core::PermissionAsk{"glob", {pattern}, {"*"}, json{{"pattern", pattern}, {"path", root.given.string()}}},
          [=, filter = std::get<PathFilter>(std::move(filter))](std::optional<core::ToolCompletion> refusal) {
            if (refusal) return done(std::move(*refusal));
            globIn(root, context.location->directory, filter, context.cancellation, context.budget, done);
          });
    });
  };
  return workerTool(kDescription, kInputSchema.view(), "glob", false, std::move(execute));
}

} // namespace toold::builtins
