#include "builtins/grep.h"

#include "builtins/constant_json.h"
#include "builtins/search/newest_first.h"
#include "builtins/search/search_budget.h"
#include "builtins/search/search_paths.h"
#include "builtins/search/searcher.h"
#include "builtins/tool_support.h"
#include "core/output/output_bounding.h"

#include <algorithm>
#include <atomic>
#include <mutex>

namespace toold::builtins {

namespace {

using core::json;

constexpr std::size_t kMaxMatches = 100;
constexpr std::size_t kMaxLineChars = 2000;

const char* kDescription = R"(Searches file contents with a regular expression.

Usage:
- pattern is a regular expression (PCRE2 syntax, like ripgrep's: "log.*Error", "function\s+\w+"). Escape special characters to search for them literally ("\(", "\.").
- path is the folder (or a single file) to search; default: the workspace.
- include filters the files by a glob ("*.js", "*.{ts,tsx}", "src/**/*.py").
- Files ignored by .gitignore or .ignore are skipped (a file given as path is always searched), hidden files are included, binary files are not.
- Returns the matching lines with their line numbers, grouped by file, the most recently modified files first; at most 100 lines, fewer (or cut shorter) when they would pass the output budget.)";

constexpr auto kInputSchema = compactJson(R"json(
{
  "additionalProperties": false,
  "properties": {
    "include": {
      "description": "File pattern to include in the search (e.g. \"*.js\", \"*.{ts,tsx}\")",
      "type": "string"
    },
    "path": {
      "description": "The directory to search in. Defaults to the workspace.",
      "type": "string"
    },
    "pattern": {
      "description": "The regex pattern to search for in file contents",
      "type": "string"
    }
  },
  "required": ["pattern"],
  "type": "object"
})json");

// `line` cut to at most `cap` bytes at a UTF-8 boundary, with "..." when something was cut.
std::string cutLine(std::string_view line, std::size_t cap) {
  if (line.size() <= cap) return std::string(line);
  std::size_t end = cap;
  while (end > 0 && (static_cast<unsigned char>(line[end]) & 0xC0) == 0x80) --end;
  return std::string(line.substr(0, end)) + "...";
}

struct MatchedLine {
  std::uint64_t number;
  std::string text;
};

/// Per file, newest first: its modification time, its path and its matched lines.
using MatchedFiles = std::vector<std::tuple<std::int64_t, std::string, std::vector<MatchedLine>>>;

// What one file contributes: up to `room` lines, counted all.
class FileLines final : public SearchSink {
public:
  FileLines(NewestFirst<std::vector<MatchedLine>>& newest, const std::filesystem::path& path)
      : newest_(newest), path_(path) {}

  bool wantsLines() override {
    if (!mtime_) {
      mtime_ = modificationTimeNs(path_);
      room_ = newest_.room(*mtime_, path_.string());
    }
    return lines_.size() < room_;
  }

  bool matched(std::uint64_t lineNumber, std::string_view line) override {
    if (wantsLines()) lines_.push_back(MatchedLine{lineNumber, cutLine(line, kMaxLineChars)});
    return true;
  }

  void finish() {
    if (lines_.empty()) return;
    const std::size_t weight = lines_.size(); // before the move below: argument order is unspecified
    newest_.offer(*mtime_, path_.string(), weight, std::move(lines_));
  }

private:
  NewestFirst<std::vector<MatchedLine>>& newest_;
  const std::filesystem::path& path_;
  std::optional<std::int64_t> mtime_;
  std::size_t room_ = 0;
  std::vector<MatchedLine> lines_;
};

struct GrepTotals {
  std::atomic<std::uint64_t> matches{0};
  std::atomic<bool> inaccessible{false};
  std::mutex mutex;
  std::vector<std::string> overBudget; ///< files given up at their time budget
};

constexpr std::size_t kMaxNamedSkips = 10;

// Names the files whose search ran past its time budget, so the model knows what was not searched.
std::string overBudgetNote(std::vector<std::string> paths) {
  if (paths.empty()) return {};
  std::sort(paths.begin(), paths.end());
  using search::SearchBudget;
  std::string text = "\n\n(Skipped " + std::to_string(paths.size()) + (paths.size() == 1 ? " file" : " files") +
                     " whose search ran past its time limit (" + std::to_string(SearchBudget::kBaseTime.count() / 1000) +
                     " s, plus " + std::to_string(SearchBudget::kTimePerChunk.count() / 1000) + " s per " +
                     std::to_string(SearchBudget::kChunkBytes >> 20) + " MiB of the file): ";
  for (std::size_t i = 0; i < paths.size() && i < kMaxNamedSkips; ++i) text += (i ? ", " : "") + paths[i];
  if (paths.size() > kMaxNamedSkips) text += " and " + std::to_string(paths.size() - kMaxNamedSkips) + " more";
  return text + ")";
}

/// Searches `name` in the open folder `directory` (never following a link there), listed as `path`.
void searchOne(FileSearcher& searcher, int directory, const std::string& name, const std::filesystem::path& path,
               NewestFirst<std::vector<MatchedLine>>& newest, GrepTotals& totals,
               const core::CancellationToken& cancellation, bool listedAsRegular) {
  FileLines sink(newest, path);
  auto result = searcher.search(directory, name, false, &sink, cancellation, listedAsRegular);
  if (result.status == FileSearchResult::Status::Unreadable) totals.inaccessible = true;
  if (result.status == FileSearchResult::Status::TimeLimit) {
    std::lock_guard lock(totals.mutex);
    totals.overBudget.push_back(path.string());
  }
  totals.matches += result.matchedLines;
  sink.finish();
}

std::string render(const MatchedFiles& files,
                   std::uint64_t total, bool inaccessible, const std::string& skipped, std::size_t lineCap) {
  std::size_t shown = 0;
  for (const auto& file : files) shown += std::get<2>(file).size();
  std::string text = "Found " + std::to_string(total) + " matches" +
                     (total > shown ? " (showing first " + std::to_string(shown) + ")" : "");
  for (std::size_t i = 0; i < files.size(); ++i) {
    text += (i ? "\n\n" : "\n") + std::get<1>(files[i]) + ":";
    for (const auto& line : std::get<2>(files[i])) {
      text += "\n  Line " + std::to_string(line.number) + ": " + cutLine(line.text, lineCap);
    }
  }
  if (total > shown)
    text += "\n\n(Results truncated: showing " + std::to_string(shown) + " of " + std::to_string(total) + " matches (" +
            std::to_string(total - shown) + " hidden). Consider using a more specific path or pattern.)";
  if (inaccessible) text += "\n\n(Some paths were inaccessible and skipped)";
  return text + skipped;
}

/// The first `keep` matched lines of `files`, in order.
MatchedFiles firstMatches(const MatchedFiles& files, std::size_t keep) {
  MatchedFiles kept;
  for (const auto& file : files) {
    if (keep == 0) break;
    const auto& lines = std::get<2>(file);
    const std::size_t take = std::min(keep, lines.size());
    kept.emplace_back(std::get<0>(file), std::get<1>(file), std::vector<MatchedLine>(lines.begin(), lines.begin() + static_cast<std::ptrdiff_t>(take)));
    keep -= take;
  }
  return kept;
}

std::size_t matchCount(const MatchedFiles& files) {
  std::size_t count = 0;
  for (const auto& file : files) count += std::get<2>(file).size();
  return count;
}

/// The answer within the budget, footer included. Lines of up to 2000 characters, 100 of them,
/// could pass it: they are cut shorter first (down to about 100 characters), and then the last
/// matches (the oldest files') are left out, as the first line and the footer then say, rather than
/// have the answer cut in the middle by anyone else.
std::pair<std::string, std::size_t> fitToBudget(const MatchedFiles& files, std::uint64_t total, bool inaccessible,
                                                const std::string& skipped, const core::BoundingLimits& budget) {
  std::size_t keep = matchCount(files);
  std::size_t cap = kMaxLineChars;
  for (;;) {
    std::string text = render(keep == matchCount(files) ? files : firstMatches(files, keep), total, inaccessible, skipped, cap);
    const core::TextMeasure measure = core::measureText(text);
    if ((measure.bytes <= budget.maxBytes && measure.lines <= budget.maxLines) || keep == 0) return {std::move(text), keep};
    if (measure.lines <= budget.maxLines && cap >= 100)
      cap /= 2;
    else
      --keep;
  }
}

void grepIn(const core::ResolvedPath& root, const std::filesystem::path& workspace, const SearchPattern& pattern, const std::optional<PathFilter>& include,
            const core::CancellationToken& cancellation, const core::BoundingLimits& budget, const core::ToolDone& done) {
  NewestFirst<std::vector<MatchedLine>> newest(kMaxMatches);
  GrepTotals totals;
  // The root is held as it was checked, and the search acts only through it (core/workspace/held_location.h).
  auto held = core::holdLocation(root, core::HoldPurpose::Read);
  if (auto* error = std::get_if<std::string>(&held)) return done(failure(*error));
  const auto& location = std::get<core::HeldLocation>(held);
  if (!location.exists()) return done(failure("No such file or directory: " + root.given.string()));
  if (!location.isDirectory()) {
    // A file named as the path is searched even if ignored, as ripgrep does; one that cannot be
    // read (a FIFO, a device, a file of /proc) is said so, not passed over as "no match".
    auto opened = core::openHeldFile(location);
    if (auto* error = std::get_if<std::string>(&opened)) return done(failure(*error));
    FileSearcher searcher(pattern);
    searchOne(searcher, location.directory.get(), location.leaf, root.canonical, newest, totals, cancellation, false);
  } else {
    auto folder = core::openHeldDirectory(location);
    if (auto* error = std::get_if<std::string>(&folder)) return done(failure(*error));
    core::WalkOptions options = searchWalkOptions(workspace);
    options.rootDirectory = std::get<core::UniqueFd>(folder).get();
    auto walk = core::walkTree(
        root.canonical, options,
        [&] {
          auto searcher = std::make_shared<FileSearcher>(pattern);
          return [&, searcher](const core::WalkEntry& entry) {
            if (entry.isFile && (!include || include->matches(entry)))
              searchOne(*searcher, entry.folderFd, std::string(entry.name()), entry.path, newest, totals, cancellation,
                        !entry.isSymlink);
            return core::WalkDecision::Continue;
          };
        },
        cancellation);
    if (walk.cancelled) return done(failure("The search was cancelled."));
    if (!walk.errors.empty()) totals.inaccessible = true;
  }
  if (cancellation.isCancelled()) return done(failure("The search was cancelled."));
  auto files = newest.take();
  // The newest files' lines, 100 in all: the last file kept may have brought more than fit.
  std::size_t kept = 0;
  for (auto& file : files) {
    auto& lines = std::get<2>(file);
    lines.resize(std::min(lines.size(), kMaxMatches - kept));
    kept += lines.size();
  }
  std::erase_if(files, [](const auto& file) { return std::get<2>(file).empty(); });
  const std::uint64_t total = totals.matches;
  const std::string skipped = overBudgetNote(std::move(totals.overBudget));
  if (total == 0) {
    std::string text = "No files found";
    if (totals.inaccessible) text += "\n\n(Some paths were inaccessible and skipped)";
    text += skipped;
    return done(core::ToolResult{std::nullopt, json(text), json{{"matches", 0}, {"truncated", false}}});
  }
  auto [text, shown] = fitToBudget(files, total, totals.inaccessible, skipped, budget);
  done(core::ToolResult{std::nullopt, json(std::move(text)), json{{"matches", total}, {"truncated", total > shown}}});
}

} // namespace

core::Tool makeGrepTool() {
  auto execute = [](json input, core::ToolContext context, core::ToolDone done) {
    const auto patternText = input["pattern"].get<std::string>();
    const std::string path = input.value("path", std::string());
    const std::string includeText = input.value("include", std::string());
    if (patternText.empty()) return done(failure("pattern is required"));
    auto compiled = SearchPattern::compile(patternText);
    if (auto* error = std::get_if<std::string>(&compiled))
      return done(failure("Invalid regular expression \"" + patternText + "\": " + *error));
    core::ResolvedPath root;
    try {
      root = core::resolveToolPath(path.empty() ? "." : path, *context.location);
    } catch (const core::PathError& e) {
      return done(failure(e.what()));
    }
    if (!root.exists) return done(failure("No such file or directory: " + root.given.string()));
    std::optional<PathFilter> include;
    if (!includeText.empty()) {
      auto filter = PathFilter::compile(includeText, root.canonical);
      if (auto* error = std::get_if<std::string>(&filter))
        return done(failure("Invalid include pattern \"" + includeText + "\": " + *error));
      include = std::get<PathFilter>(std::move(filter));
    }
    std::vector<core::PermissionAsk> asks;
    if (auto external = core::externalDirectoryAsk(root, root.isDirectory ? core::PathKind::Directory : core::PathKind::File))
      asks.push_back(std::move(*external));
    asks.push_back(core::PermissionAsk{
        "grep", {patternText}, {"*"}, json{{"pattern", patternText}, {"path", root.given.string()}, {"include", includeText}}});
    assertEach(context, std::move(asks),
               [=, pattern = std::get<SearchPattern>(std::move(compiled))](std::optional<core::ToolCompletion> refusal) {
                 if (refusal) return done(std::move(*refusal));
                 grepIn(root, context.location->directory, pattern, include, context.cancellation, context.budget, done);
               });
  };
  return workerTool(kDescription, kInputSchema.view(), "grep", false, std::move(execute));
}

} // namespace toold::builtins
