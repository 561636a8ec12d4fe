#include "core/sandbox/sandbox_settings.h"

namespace toold::core {

std::optional<SandboxMode> parseSandboxMode(std::string_view text) {
  if (text == "off") return SandboxMode::Off;
  if (text == "read-only") return SandboxMode::ReadOnly;
  if (text == "workspace-write") return SandboxMode::WorkspaceWrite;
  return std::nullopt;
}

std::string_view sandboxModeName(SandboxMode mode) {
  switch (mode) {
  case SandboxMode::Off: return "off";
  case SandboxMode::ReadOnly: return "read-only";
  case SandboxMode::WorkspaceWrite: return "workspace-write";
  }
  return "off";
}

} // namespace toold::core
