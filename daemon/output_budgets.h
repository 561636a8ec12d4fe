// The budget of a tool's answer on each face. The native `call` face serves runners that bound
// what they pass on themselves (opencode's 2000 lines / 50 KB), so it keeps that. The MCP face
// serves hosts that cut a tool's answer again by their own rules, which lose what toold put at
// the end (the continuation hint, the exit status): Codex keeps about 12 KB of it (its head and
// tail; 10 KiB and at most 256 lines in some versions), Claude Code swaps anything over about 50 KB for a
// file and a 2 KB preview, opencode cuts at 2000 lines / 50 KB. One MCP default that all of them
// keep whole is simpler than one per client and needs no client to be recognised by name.
#pragma once

#include "core/output/output_bounding.h"
#include "core/output/output_store.h"

#include <cstddef>
#include <cstdint>
#include <optional>

namespace toold::daemon {

/// The native `call` face's default: opencode's own bounds.
inline constexpr core::BoundingLimits kCallFaceBudget{2000, 50 * 1024};
/// The MCP face's default: within what every measured host keeps whole.
inline constexpr core::BoundingLimits kMcpFaceBudget{250, 10000};

/// What the user set, each dimension on its own: a flag, else toold.json's `output`.
struct ExplicitBudget {
  std::optional<std::size_t> maxLines;
  std::optional<std::size_t> maxBytes;
};

/// The flag's value, else the config's; each unset one stays unset.
ExplicitBudget explicitBudget(std::optional<std::size_t> flagLines, std::optional<std::size_t> flagBytes,
                              std::optional<std::size_t> configLines, std::optional<std::size_t> configBytes);

/// A face's budget: what the user set applies to every face; the rest is the face's default.
core::BoundingLimits faceBudget(const ExplicitBudget& set, const core::BoundingLimits& faceDefault);

/// What the tool-output folder keeps: each flag's value, else the config's, else the default.
core::RetentionLimits retentionLimits(std::optional<std::uint64_t> flagBudget, std::optional<std::uint64_t> flagFile,
                                      std::optional<std::uint64_t> configBudget, std::optional<std::uint64_t> configFile);

} // namespace toold::daemon
