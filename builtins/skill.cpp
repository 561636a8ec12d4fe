#include "builtins/skill.h"

#include "builtins/constant_json.h"
#include "builtins/tool_support.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <mutex>

namespace toold::builtins {

namespace {

using core::json;

constexpr std::size_t kSampledFiles = 10;

const char* kDescriptionHead = R"(Load a specialized skill that provides domain-specific instructions and workflows.

When you recognize that a task matches one of the available skills listed below, use this tool to load the full skill instructions.

The skill will inject detailed instructions, workflows, and access to bundled resources (scripts, references, templates) into the conversation context.

Tool output includes a `<skill_content name="...">` block with the loaded content.

The following skills provide specialized sets of instructions for particular tasks. Invoke this tool to load a skill when a task matches one of the available skills listed below:

)";

constexpr auto kInputSchema = compactJson(R"json(
{
  "properties": {
    "name": {
      "description": "The name of the skill from available_skills",
      "type": "string"
    }
  },
  "required": ["name"],
  "type": "object"
})json");

std::string describe(const std::vector<Skill>& skills) {
  if (skills.empty()) return std::string(kDescriptionHead) + "No skills are currently available.";
  std::string list;
  for (const auto& skill : skills)
    list += (list.empty() ? "" : "\n") + std::string("- **") + skill.name + "**: " + skill.description;
  return kDescriptionHead + list;
}

// file:// URL of an absolute path; bytes outside the unreserved set and '/' are percent-encoded.
std::string fileUrl(const std::filesystem::path& path) {
  static const char* hex = "0123456789ABCDEF";
  std::string url = "file://";
  for (unsigned char c : path.string()) {
    if (std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~') {
      url.push_back(static_cast<char>(c));
    } else {
      url.push_back('%');
      url.push_back(hex[c >> 4]);
      url.push_back(hex[c & 15]);
    }
  }
  return url;
}

std::string_view trimmedBody(std::string_view body) {
  while (!body.empty() && std::isspace(static_cast<unsigned char>(body.front()))) body.remove_prefix(1);
  while (!body.empty() && std::isspace(static_cast<unsigned char>(body.back()))) body.remove_suffix(1);
  return body;
}

// Snapshots are taken on the dispatch thread, one per model request: reading every SKILL.md each
// time cost about 2 ms with 20 skills. A discovery is reused for a second — a skill written
// meanwhile shows up in the next snapshot after that.
std::vector<Skill> cachedDiscovery(const std::vector<std::filesystem::path>& folders) {
  constexpr auto kFresh = std::chrono::seconds(1);
  static std::mutex mutex;
  static std::vector<std::filesystem::path> lastFolders;
  static std::vector<Skill> lastSkills;
  static std::chrono::steady_clock::time_point lastTime;
  const auto now = std::chrono::steady_clock::now();
  std::lock_guard lock(mutex);
  if (folders != lastFolders || now - lastTime >= kFresh) {
    lastSkills = discoverSkills(folders);
    lastFolders = folders;
    lastTime = now;
  }
  return lastSkills;
}

} // namespace

std::vector<Skill> permittedSkills(const core::CatalogView& catalog, const std::vector<std::string>& configuredFolders) {
  if (!catalog.location) return {};
  auto skills = cachedDiscovery(skillFolders(catalog.location->directory, catalog.location->worktree, configuredFolders));
  std::erase_if(skills, [&](const Skill& skill) { return catalog.denies("skill", skill.name); });
  return skills;
}

std::string skillContent(const Skill& skill, const std::vector<std::filesystem::path>& files) {
  const auto dir = skill.file.parent_path();
  std::string text = "<skill_content name=\"" + skill.name + "\">\n# Skill: " + skill.name + "\n\n";
  text += std::string(trimmedBody(skill.body)) + "\n\n";
  text += "Base directory for this skill: " + fileUrl(dir) + "\n";
  text += "Relative paths in this skill (e.g., scripts/, reference/) are relative to this base directory.\n";
  text += "Note: file list is sampled.\n\n<skill_files>\n";
  for (const auto& file : files) text += "<file>" + file.string() + "</file>\n";
  text += "</skill_files>\n</skill_content>";
  return text;
}

core::Tool makeSkillTool(std::function<std::vector<std::string>()> configuredFolders) {
  auto execute = [configuredFolders](json input, core::ToolContext context, core::ToolDone done) {
    const std::string name = input.value("name", std::string());
    core::CatalogView view;
    if (context.catalog) view = *context.catalog;
    view.location = context.location;
    auto skills = permittedSkills(view, configuredFolders());
    auto it = std::find_if(skills.begin(), skills.end(), [&](const Skill& s) { return s.name == name; });
    if (it == skills.end()) {
      std::string available;
      for (const auto& skill : skills) available += (available.empty() ? "" : ", ") + skill.name;
      return done(failure("Skill \"" + name + "\" not found. Available skills: " + (available.empty() ? "none" : available)));
    }
    Skill skill = *it;
    context.assertPermission(core::PermissionAsk{"skill", {name}, {name}, json{{"name", name}}},
                             [skill, done](std::optional<core::ToolCompletion> refusal) {
                               if (refusal) return done(std::move(*refusal));
                               const auto dir = skill.file.parent_path();
                               auto files = sampleSkillFiles(dir, kSampledFiles);
                               json metadata{{"title", "Loaded skill: " + skill.name},
                                             {"name", skill.name},
                                             {"dir", dir.string()}};
                               done(core::ToolResult{std::nullopt, json(skillContent(skill, files)), std::move(metadata)});
                             });
  };
  core::Tool tool = workerTool(describe({}), kInputSchema.view(), "skill", false, std::move(execute));
  // With no skill to load the tool could only answer "not found": it is not offered at all.
  tool.describe = [configuredFolders](const core::CatalogView& catalog) -> std::optional<std::string> {
    auto skills = permittedSkills(catalog, configuredFolders());
    if (skills.empty()) return std::nullopt;
    return describe(skills);
  };
  return tool;
}

} // namespace toold::builtins
