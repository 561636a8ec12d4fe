// Finding skills: SKILL.md files with a front matter naming them (`name`, `description`), under the
// Location's `.opencode/skill/`, `.opencode/skills/`, `.claude/skills/`, `.agents/skills/` (in the
// workspace and, when it differs, the worktree's root) and the folders the config names.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toold::builtins {

struct Skill {
  std::string name;
  std::string description;
  std::filesystem::path file; ///< the SKILL.md
  std::string body;           ///< what follows the front matter
};

struct SkillFrontMatter {
  std::string name;
  std::string description;
  std::string body;
};

/// Reads a SKILL.md text: `---`, `key: value` lines (values may be quoted, or `>`/`|` followed by
/// indented lines), `---`, the body. nullopt without a front matter or a name.
std::optional<SkillFrontMatter> parseSkillFile(std::string_view text);

/// The folders looked in, existing or not: the four conventional ones under `directory` and under
/// `worktree` (when not empty and different), then `configured` (relative to `directory`; `~/`
/// is the home directory).
std::vector<std::filesystem::path> skillFolders(const std::filesystem::path& directory,
                                                const std::filesystem::path& worktree,
                                                const std::vector<std::string>& configured);

/// Every skill under `folders`, sorted by name; a name found twice keeps the first folder's.
std::vector<Skill> discoverSkills(const std::vector<std::filesystem::path>& folders);

/// Up to `limit` files under the skill's folder (hidden ones included, symlinks not followed, the
/// SKILL.md itself left out), sorted.
std::vector<std::filesystem::path> sampleSkillFiles(const std::filesystem::path& folder, std::size_t limit);

} // namespace toold::builtins
