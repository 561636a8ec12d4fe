// Which registered tools a snapshot advertises. Two filters, both data rather than scattered ifs:
// permission rules that deny a tool's action on every resource hide it (visibility only — a tool
// still asserts its own permissions when it runs), and a table of model families that swaps
// tool variants (GPT models edit files with `apply_patch`, the others with `edit` and `write`).
#pragma once

#include "protocol/tool_messages.h"

#include <optional>
#include <string_view>
#include <vector>

namespace toold::core {

/// True when the last rule whose action pattern matches `action` denies the resource `*` itself:
/// no resource could ever be allowed, so showing the tool would only waste the model's attention.
bool whollyDenied(std::string_view action, const std::vector<protocol::CatalogRule>& rules);

/// True when the model's tool variant table hides the tool named `name` for `model` (no model:
/// the default variant).
bool hiddenForModel(std::string_view name, const std::optional<std::string>& model);

} // namespace toold::core
