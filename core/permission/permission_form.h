// What a person is shown to decide an ask on: the tool, what it touches (path, command, a compact
// diff, an MCP tool's arguments), the host's call id, and in plain words what "Allow always" will
// grant. Built from a `permission/ask` request; the MCP face sends it as an `elicitation/create`
// form whose choices are titled `oneOf` constants (MCP 2025-11-25; `enumNames` is deprecated).
// Every part is bounded, so a form stays readable whatever the call carries.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace toold::core {

/// Bounds of the parts of a form.
inline constexpr std::size_t kFormDiffBytes = 2048;
inline constexpr std::size_t kFormDiffLines = 40;
inline constexpr std::size_t kFormArgumentsBytes = 1024;
inline constexpr std::size_t kFormCommandBytes = 1024;

/// `text` cut to at most `maxBytes` and `maxLines`, at a line end when there is one (else at a
/// UTF-8 character's start), with a last line saying how much was left out.
std::string boundedForForm(std::string_view text, std::size_t maxBytes, std::size_t maxLines);

/// What "Allow always" grants for `request` ({action, save, literal?}), in plain words:
/// "every file edit (edit, write, multiedit, apply_patch) in this workspace, from now on …".
std::string alwaysGrants(const nlohmann::json& request);

/// The form's message: the headline, the call, and what the call would do.
std::string formMessage(const nlohmann::json& request);

/// The `elicitation/create` params for `request`: the message, and a form with a `decision`
/// (once, always, reject as titled `oneOf` constants) and an optional message for the model.
nlohmann::json elicitationParams(const nlohmann::json& request);

} // namespace toold::core
