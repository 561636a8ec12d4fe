#include "builtins/codemode/catalog_summary.h"

#include <algorithm>
#include <map>

namespace toold::codemode {

using json = nlohmann::json;

namespace {

constexpr std::size_t kDescriptionLimit = 120;
constexpr const char* kChanged = "The Code Mode tool catalog has changed.";
constexpr const char* kSupersedes =
    "The Code Mode tool catalog has changed. This catalog supersedes the previous Code Mode tool catalog.";
constexpr const char* kGone = "Code Mode tools are no longer available. Do not use any previously listed Code Mode tools.";

std::string firstLine(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  const auto begin = line.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  line = line.substr(begin, line.find_last_not_of(" \t\r") - begin + 1);
  if (line.size() > kDescriptionLimit) line = line.substr(0, kDescriptionLimit - 3) + "...";
  return line;
}

std::string toolCount(std::size_t n) { return std::to_string(n) + (n == 1 ? " tool" : " tools"); }

std::string header(const CatalogNamespace& ns) {
  std::string line = "- " + ns.name + " (" + toolCount(ns.count);
  if (ns.entries.empty()) line += ", none shown";
  else if (ns.entries.size() < ns.count) line += ", " + std::to_string(ns.entries.size()) + " shown";
  return line + ")";
}

std::string quotedPath(const std::string& dotted) { return pathExpression(parsePathExpression(dotted)); }

} // namespace

const char* const kSearchSignature = R"(search(input?: {
  query?: string,
  namespace?: string,
  limit?: number,
  offset?: number,
}): {
  items: Array<{ path: string, description: string, signature: string }>,
  remaining: number,
  next: { offset: number } | null,
})";

std::size_t estimatedTokens(const std::string& text) { return (text.size() + 2) / 4; }

std::string listingLine(const CatalogEntry& entry) {
  std::string signature;
  for (char c : entry.signature) signature += c == '\n' ? std::string("\n    ") : std::string(1, c);
  std::string line = "  - " + signature;
  if (const std::string description = firstLine(entry.description); !description.empty()) line += " // " + description;
  return line;
}

CatalogSummary summarizeCatalog(const std::vector<CatalogEntry>& entries, std::size_t budget) {
  struct Candidate {
    std::size_t cost;
    std::string path;
    std::string line;
  };
  struct Group {
    CatalogNamespace ns;
    std::vector<Candidate> waiting; ///< cheapest first
    std::size_t next = 0;
    bool active = true;
  };
  std::map<std::string, Group> groups;
  for (const auto& entry : entries) {
    Group& group = groups[entry.path.front()];
    group.ns.name = entry.path.front();
    ++group.ns.count;
  }
  long remaining = static_cast<long>(budget);
  for (auto& [name, group] : groups) remaining -= static_cast<long>(estimatedTokens(header(group.ns)));
  for (const auto& entry : entries) {
    Group& group = groups[entry.path.front()];
    std::string line = listingLine(entry);
    const std::size_t cost = estimatedTokens(line);
    if (entry.pinned) {
      remaining -= static_cast<long>(cost);
      group.ns.entries.push_back({entry.key, std::move(line)});
    } else {
      group.waiting.push_back({cost, entry.key, std::move(line)});
    }
  }
  for (auto& [name, group] : groups)
    std::sort(group.waiting.begin(), group.waiting.end(),
              [](const auto& a, const auto& b) { return a.cost != b.cost ? a.cost < b.cost : a.path < b.path; });
  for (bool anyActive = true; anyActive;) {
    anyActive = false;
    for (auto& [name, group] : groups) {
      if (!group.active) continue;
      if (group.next >= group.waiting.size() || static_cast<long>(group.waiting[group.next].cost) > remaining) {
        group.active = false;
        continue;
      }
      Candidate& candidate = group.waiting[group.next++];
      remaining -= static_cast<long>(candidate.cost);
      group.ns.entries.push_back({candidate.path, std::move(candidate.line)});
      anyActive = true;
    }
  }
  CatalogSummary summary;
  summary.total = entries.size();
  for (auto& [name, group] : groups) {
    std::sort(group.ns.entries.begin(), group.ns.entries.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
    summary.shown += group.ns.entries.size();
    summary.namespaces.push_back(std::move(group.ns));
  }
  return summary;
}

std::string renderCatalog(const CatalogSummary& summary) {
  if (summary.total == 0) return "# Code Mode\n\nNo Code Mode tools are currently available.";
  std::string text =
      "# Code Mode\n\n"
      "Use the `execute` tool to run a JavaScript program that calls the tools below as "
      "`await tools.<path>(input)`. These tools, and `search`, exist only inside `execute`: they cannot be "
      "called directly.\n\n";
  if (summary.complete()) {
    text += "This catalog lists every Code Mode tool (" + toolCount(summary.total) + ").\n\n";
  } else {
    text += "This catalog is partial: it lists " + std::to_string(summary.shown) + " of " +
            toolCount(summary.total) + ". Find the others with `search` inside `execute`.\n\n";
    text += "## Search\n\n" + std::string(kSearchSignature) + "\n\nCall it without `await`; it returns at once.\n\n";
  }
  text += "Do not guess tool names: call only the paths listed here or returned by `search`, exactly as written.\n\n"
          "## Available tools\n";
  for (const auto& ns : summary.namespaces) {
    text += "\n" + header(ns);
    for (const auto& entry : ns.entries) text += "\n" + entry.line;
  }
  return text;
}

std::optional<std::string> catalogChange(const CatalogSummary* previous, const CatalogSummary* current) {
  if (previous == nullptr) return std::nullopt;
  if (current == nullptr) return std::string(kGone);
  if (*previous == *current) return std::nullopt;
  const std::string replacement = std::string(kSupersedes) + "\n\n" + renderCatalog(*current);
  if (current->total == 0 || previous->total == 0 || previous->complete() != current->complete()) return replacement;

  std::map<std::string, std::string> before, after;
  for (const auto& ns : previous->namespaces)
    for (const auto& entry : ns.entries) before[entry.path] = entry.line;
  for (const auto& ns : current->namespaces)
    for (const auto& entry : ns.entries) after[entry.path] = entry.line;

  std::string delta = kChanged;
  if (current->complete()) {
    std::string added, changed, removed;
    for (const auto& [path, line] : after) {
      auto it = before.find(path);
      if (it == before.end()) added += "\n" + line;
      else if (it->second != line) changed += "\n" + line;
    }
    for (const auto& [path, line] : before)
      if (!after.count(path)) removed += (removed.empty() ? "" : ", ") + quotedPath(path);
    if (!added.empty()) delta += "\n\nNew tools are available in addition to those previously listed:" + added;
    if (!changed.empty()) delta += "\n\nChanged tool listings supersede the previously listed ones:" + changed;
    if (!removed.empty()) delta += "\n\nThe following tools are no longer available and must not be called: " + removed + ".";
  } else {
    // Partial: a change among the listed tools restates everything; one behind the budget is told
    // per namespace.
    if (before != after) return replacement;
    std::map<std::string, std::size_t> counts;
    for (const auto& ns : previous->namespaces) counts[ns.name] = ns.count;
    std::string added, grown, removed;
    for (const auto& ns : current->namespaces) {
      auto it = counts.find(ns.name);
      if (it == counts.end()) added += "\n" + header(ns);
      else if (it->second != ns.count)
        grown += "\n`" + ns.name + "` now has " + toolCount(ns.count) + "; search them again before relying on previous results.";
      if (it != counts.end()) counts.erase(it);
    }
    for (const auto& [name, count] : counts) removed += (removed.empty() ? "" : ", ") + std::string("`") + name + "`";
    if (!added.empty()) delta += "\n\nNew namespaces are available (use `search` to find their tools):" + added;
    if (!grown.empty()) delta += "\n" + grown;
    if (!removed.empty()) delta += "\n\nThese namespaces are no longer available and must not be used: " + removed + ".";
  }
  return delta.size() < replacement.size() ? delta : replacement;
}

json summaryToJson(const CatalogSummary& summary) {
  json namespaces = json::array();
  for (const auto& ns : summary.namespaces) {
    json entries = json::array();
    for (const auto& entry : ns.entries) entries.push_back({{"path", entry.path}, {"line", entry.line}});
    namespaces.push_back({{"name", ns.name}, {"count", ns.count}, {"entries", std::move(entries)}});
  }
  return json{{"total", summary.total}, {"shown", summary.shown}, {"namespaces", std::move(namespaces)}};
}

} // namespace toold::codemode
