// Which registered tools a snapshot advertises, by model: a table of model families that swaps
// tool variants (GPT models edit files with `apply_patch`, the others with `edit` and `write`).
// The other filter, rules that deny a tool's action wholly, is in core/permission/permission_evaluation.h.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace toold::core {

/// True when the model's tool variant table hides the tool named `name` for `model` (no model:
/// the default variant).
bool hiddenForModel(std::string_view name, const std::optional<std::string>& model);

} // namespace toold::core
