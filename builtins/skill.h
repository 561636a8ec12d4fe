// `skill`: loads a skill's instructions (a SKILL.md) into the conversation (opencode §15.4). The
// description lists the skills the agent may load; the output is opencode's <skill_content> block.
#pragma once

#include "builtins/skills/skill_catalog.h"
#include "core/tools/tool.h"

#include <functional>
#include <string>
#include <vector>

namespace toold::builtins {

/// `configuredFolders`: the config's `skills.paths`, asked on every call and snapshot (config/reload
/// changes them).
core::Tool makeSkillTool(std::function<std::vector<std::string>()> configuredFolders);

/// The skills `catalog` may load (its rules do not deny `skill` on their name), sorted by name.
std::vector<Skill> permittedSkills(const core::CatalogView& catalog, const std::vector<std::string>& configuredFolders);

/// opencode's <skill_content name="X"> block for `skill`, listing `files`.
std::string skillContent(const Skill& skill, const std::vector<std::filesystem::path>& files);

} // namespace toold::builtins
