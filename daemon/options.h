// The daemon's command line.
#pragma once

#include "core/sandbox/sandbox_settings.h"
#include "protocol/framing.h"

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <variant>

namespace toold::daemon {

/// Below the 60 s after which MCP hosts (opencode's client, Codex's tool_timeout_sec) give up on a
/// call, with room for the answer's way back.
inline constexpr std::chrono::milliseconds kDefaultMcpForegroundLimit{45000};

struct Options {
  std::string directory;                  ///< the Location; the current directory by default
  std::string dataDir;                    ///< $XDG_DATA_HOME/toold, else ~/.local/share/toold
  std::string logLevel = "info";          ///< trace, debug, info, warn, error, off
  std::string logFile;                    ///< empty: stderr
  protocol::Framing framing = protocol::Framing::Auto;
  std::size_t maxFrameBytes = 64u << 20;  ///< 64 MiB
  /// The budget of a tool's answer on every face, when given; unset: toold.json's `output`, else
  /// each face's default (output_budgets.h).
  std::optional<std::size_t> maxOutputLines;
  std::optional<std::size_t> maxOutputBytes;
  /// --output-budget / --output-file-bytes: what `<data-dir>/tool-output` keeps in all and of one
  /// output; unset: toold.json's output.budgetBytes / fileBytes, else core::RetentionLimits'.
  std::optional<std::uint64_t> outputBudgetBytes;
  std::optional<std::uint64_t> outputFileBytes;
  unsigned busyPollMicros = 50;           ///< how long the reader spins for the next frame before sleeping
  bool builtins = true;                   ///< serves the built-in tools (read, edit, …)
  bool conformanceTools = false;          ///< --conformance-tools: the MCP conformance suite's fixture tools
  bool testMethods = false;               ///< binds the $/test/ methods (fixtures and benchmarks only)
  std::string configFile;                 ///< --config; empty: <directory>/toold.json when it exists
  std::optional<bool> unattendedAllow;    ///< --unattended allow|deny; unset: toold.json's asks.unattended, else deny
  std::string asks;                       ///< --asks auto|client|unattended; empty: toold.json's asks, else auto
  std::optional<std::chrono::milliseconds> permissionTimeout; ///< how long an ask may wait
  std::chrono::milliseconds drainTimeout{30000}; ///< --drain-timeout: how long requests run on after end of input
  std::chrono::milliseconds mcpRestartDelay{1000}; ///< --mcp-restart-delay: an MCP server's first restart delay
  std::chrono::milliseconds mcpHealthyReset{300000}; ///< --mcp-healthy-reset: connected this long, its failures are forgotten
  std::chrono::milliseconds mcpKeepAlive{20000}; ///< --mcp-keep-alive: an MCP call silent this long repeats its progress
  std::string mcpModel;                   ///< --mcp-model: the model the MCP face serves (empty: the config's, else none)
  /// --foreground-limit: how long an MCP `tools/call` of bash holds a command before moving it to
  /// the background (nullopt: toold.json's mcp.foregroundLimit, else kDefaultMcpForegroundLimit;
  /// 0: never moved).
  std::optional<std::chrono::milliseconds> foregroundLimit;
  /// --native-foreground-limit: the same for the native `call` (0, the default: never moved).
  std::chrono::milliseconds nativeForegroundLimit{0};
  /// --sandbox: the OS sandbox's mode, over toold.json's `sandbox` (unset: the config's, else
  /// workspace-write where the kernel allows it).
  std::optional<core::SandboxMode> sandboxMode;
  /// --lsp on|off: language servers used or not, over toold.json's `lsp` (unset: as it says).
  std::optional<bool> lsp;
  /// --checkpoints on|off: what calls change recorded to be shown and undone, over toold.json's
  /// `checkpoints.enabled` (unset: as it says, else on).
  std::optional<bool> checkpoints;
  /// --checkpoint-budget N: the bytes a workspace's checkpoints may take, over
  /// `checkpoints.budgetBytes` (unset: that, else 1 GiB).
  std::optional<std::uint64_t> checkpointBudgetBytes;
};

/// What parsing the command line decided: run with these options, or print this and exit.
struct ParsedCommandLine {
  std::optional<Options> options;
  std::string message; ///< help, version, or the error
  int exitStatus = 0;  ///< when options is empty: 0 for --help/--version, 2 for an error
};

ParsedCommandLine parseCommandLine(int argc, char** argv);

} // namespace toold::daemon
