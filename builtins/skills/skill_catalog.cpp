#include "builtins/skills/skill_catalog.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

namespace toold::builtins {

namespace {

namespace fs = std::filesystem;

// Skill folders are small; these bound a walk into a folder that is not (a symlinked home).
constexpr int kMaxDepth = 6;
constexpr std::size_t kMaxEntries = 5000;
constexpr std::uintmax_t kMaxSkillBytes = 1 << 20;

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t' || text.front() == '\r')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
  return text;
}

std::string unquoted(std::string_view value) {
  value = trimmed(value);
  if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') && value.back() == value.front())
    return std::string(value.substr(1, value.size() - 2));
  return std::string(value);
}

std::vector<std::string_view> linesOf(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) {
      lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

} // namespace

std::optional<SkillFrontMatter> parseSkillFile(std::string_view text) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  auto lines = linesOf(text);
  if (lines.empty() || trimmed(lines[0]) != "---") return std::nullopt;
  SkillFrontMatter result;
  std::size_t i = 1;
  std::size_t bodyStart = std::string_view::npos;
  std::size_t offset = lines[0].size() + 1;
  for (; i < lines.size(); ++i) {
    const std::string_view line = lines[i];
    offset += line.size() + 1;
    if (trimmed(line) == "---") {
      bodyStart = offset;
      break;
    }
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos || line.starts_with(' ') || line.starts_with('\t')) continue;
    const std::string key(trimmed(line.substr(0, colon)));
    std::string value = unquoted(line.substr(colon + 1));
    if (value == ">" || value == "|" || value == ">-" || value == "|-") {
      // A block scalar: the indented lines that follow, folded into one line.
      value.clear();
      while (i + 1 < lines.size() && (lines[i + 1].starts_with(' ') || lines[i + 1].starts_with('\t'))) {
        ++i;
        offset += lines[i].size() + 1;
        value += (value.empty() ? "" : " ") + std::string(trimmed(lines[i]));
      }
    }
    if (key == "name") result.name = value;
    else if (key == "description") result.description = value;
  }
  if (bodyStart == std::string_view::npos || result.name.empty()) return std::nullopt;
  result.body = bodyStart < text.size() ? std::string(text.substr(bodyStart)) : std::string();
  return result;
}

std::vector<fs::path> skillFolders(const fs::path& directory, const fs::path& worktree,
                                   const std::vector<std::string>& configured) {
  std::vector<fs::path> folders;
  std::vector<fs::path> roots{directory};
  if (!worktree.empty() && worktree != directory) roots.push_back(worktree);
  for (const auto& root : roots)
    for (const char* sub : {".opencode/skill", ".opencode/skills", ".claude/skills", ".agents/skills"})
      folders.push_back(root / sub);
  for (const auto& path : configured) {
    if (path == "~" || path.starts_with("~/")) {
      const char* home = std::getenv("HOME");
      if (home == nullptr) continue;
      folders.push_back(fs::path(home) / (path.size() > 2 ? path.substr(2) : std::string()));
    } else {
      folders.push_back(fs::path(path).is_absolute() ? fs::path(path) : directory / path);
    }
  }
  return folders;
}

std::vector<Skill> discoverSkills(const std::vector<fs::path>& folders) {
  std::vector<Skill> skills;
  std::set<std::string> names;
  for (const auto& folder : folders) {
    std::error_code ec;
    if (!fs::is_directory(folder, ec)) continue;
    std::vector<fs::path> files;
    fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec);
    std::size_t visited = 0;
    for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (++visited > kMaxEntries) break;
      if (it.depth() >= kMaxDepth) it.disable_recursion_pending();
      if (it->path().filename() == "SKILL.md" && it->is_regular_file(ec)) files.push_back(it->path());
    }
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
      std::error_code sizeError;
      if (fs::file_size(file, sizeError) > kMaxSkillBytes || sizeError) continue;
      std::ifstream in(file, std::ios::binary);
      std::stringstream text;
      text << in.rdbuf();
      auto parsed = parseSkillFile(text.str());
      if (!parsed) {
        spdlog::debug("skill file {} has no front matter with a name; skipped", file.string());
        continue;
      }
      if (!names.insert(parsed->name).second) {
        spdlog::debug("skill {} in {} is shadowed by one found before", parsed->name, file.string());
        continue;
      }
      skills.push_back(Skill{parsed->name, parsed->description, file, parsed->body});
    }
  }
  std::sort(skills.begin(), skills.end(), [](const Skill& a, const Skill& b) { return a.name < b.name; });
  return skills;
}

std::vector<fs::path> sampleSkillFiles(const fs::path& folder, std::size_t limit) {
  std::vector<fs::path> files;
  std::error_code ec;
  fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec);
  std::size_t visited = 0;
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (++visited > kMaxEntries) break;
    if (it.depth() >= kMaxDepth) it.disable_recursion_pending();
    if (it->is_symlink(ec) || !it->is_regular_file(ec)) continue;
    if (it->path().string().find("SKILL.md") != std::string::npos) continue;
    files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  if (files.size() > limit) files.resize(limit);
  return files;
}

} // namespace toold::builtins
