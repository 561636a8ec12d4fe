// Tool names: how an authored name and a namespace become the effective, provider-facing name.
// Characters outside [A-Za-z0-9_-] become `_`; a namespace flattens to <namespace>_<name> with
// its dots as `_`; effective names are 1..64 characters; `execute` is reserved for Code Mode.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace toold::core {

inline constexpr std::size_t kMaxToolNameLength = 64;
inline constexpr std::string_view kReservedToolName = "execute";

/// A registration that cannot be accepted; the message names the tool and the reason.
struct RegistrationError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Replaces every character outside [A-Za-z0-9_-] with one `_` (a multi-byte UTF-8 character too).
std::string normalizeToolName(std::string_view authored);

/// Throws RegistrationError unless every dot-separated segment is non-empty and of [A-Za-z0-9_-].
/// Namespaces are never silently normalized: a typo there would scatter a tool family.
void validateNamespace(std::string_view ns);

/// The effective name of `authored` under `ns` (empty: none). Throws RegistrationError when the
/// result is empty, longer than 64 characters, or the reserved `execute`.
std::string effectiveToolName(std::string_view authored, std::string_view ns);

} // namespace toold::core
