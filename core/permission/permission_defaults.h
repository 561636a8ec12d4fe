// The rules every Location starts from, before its config: everything is allowed except leaving
// the workspace, reading secrets, repeating the same call in a loop and leaving the OS sandbox,
// which ask the person.
#pragma once

#include "core/permission/permission_rule.h"

#include <filesystem>

namespace toold::core {

/// The permission asked before a command the OS sandbox stopped runs again outside it. It asks by
/// default; only a rule naming it (not `*`) or a person grants it, never the unattended policy.
inline constexpr const char* kSandboxAction = "sandbox";

/// The defaults, with the managed tool-output folder (where truncated outputs are kept for the
/// model to read) allowed although it lies outside the workspace.
Ruleset defaultPermissionRules(const std::filesystem::path& toolOutputFolder);

} // namespace toold::core
