// The rules every Location starts from, before its config: everything is allowed except leaving
// the workspace, reading secrets and repeating the same call in a loop, which ask the person.
#pragma once

#include "core/permission/permission_rule.h"

#include <filesystem>

namespace toold::core {

/// The defaults, with the managed tool-output folder (where truncated outputs are kept for the
/// model to read) allowed although it lies outside the workspace.
Ruleset defaultPermissionRules(const std::filesystem::path& toolOutputFolder);

} // namespace toold::core
