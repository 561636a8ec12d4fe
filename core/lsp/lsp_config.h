// The language servers toold may start: the built-in list (opencode's, used only where the program
// is installed — nothing is downloaded) and the `lsp` section of toold.json, in opencode's shape:
//
//   "lsp": false                                   (no language server at all)
//   "lsp": {"clangd": {"disabled": true},          (a built-in, overridden: any subset of its keys)
//           "mylang": {"command": ["mylang-ls", "--stdio"], "extensions": [".ml"],   (a new one)
//                      "env": {"K": "V"}, "initialization": {…}, "rootMarkers": ["dune-project"]},
//           "diagnosticsTimeout": 3000, "idleTimeout": 600000, "requestTimeout": 10000}
//
// The three numbers are toold's own settings beside the servers (as `mcp.model` sits beside the
// MCP servers). `{env:NAME}` in a command or an environment value is that variable. Keys are
// checked strictly; an error names the file, the line and the key, and refuses the file whole.
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toold::core {

struct LspServerConfig {
  std::string name;
  std::vector<std::string> command;              ///< program + args
  std::vector<std::string> extensions;           ///< with the dot: ".cpp"; compared case-sensitively
  std::map<std::string, std::string> environment; ///< laid over toold's
  nlohmann::json initialization = nullptr;       ///< initializationOptions; null: none
  /// The nearest folder (from the file's up to the workspace) holding one is the root; none found:
  /// the workspace.
  std::vector<std::string> rootMarkers;
  bool disabled = false;
  bool builtIn = false;
  /// Built-in only: not used for a file that this other server serves (pylsp is replacedBy
  /// "pyright": where pyright is installed and enabled, pylsp is not started).
  std::string replacedBy;
  bool operator==(const LspServerConfig&) const = default;
};

/// opencode's servers that toold knows, in this order: clangd, pyright, pylsp, typescript, bash,
/// gopls, rust.
std::vector<LspServerConfig> builtInLspServers();

struct LspSettings {
  bool enabled = true;                                   ///< false: `"lsp": false`
  /// The built-ins (with overrides applied) in their order, then the declared ones by name.
  std::vector<LspServerConfig> servers = builtInLspServers();
  std::chrono::milliseconds diagnosticsTimeout{3000};    ///< how long an edit waits for diagnostics
  std::chrono::milliseconds idleTimeout{600000};         ///< an idle server is stopped after; 0: never
  std::chrono::milliseconds requestTimeout{10000};       ///< the `lsp` tool's requests
  bool operator==(const LspSettings&) const = default;
};

/// Reads the `lsp` section of configuration text (the rest is the other readers'); the defaults
/// without one. Throws ConfigError (`toold.json:3: lsp.clangd: unknown key "cmd" (expected …)`).
LspSettings parseLspConfig(std::string_view text, const std::string& displayName);

/// The same file loadPermissionConfig reads (`explicitFile`, else `<directory>/toold.json` if
/// present); the defaults without one. Throws ConfigError.
LspSettings loadLspConfig(const std::filesystem::path& directory, const std::optional<std::filesystem::path>& explicitFile);

/// The LSP languageId of a file, by its extension: "c" for .c, "cpp" for the C++ sources and every
/// header (clangd reads a header as C++), "objective-c", "python", "typescript", "javascript" (and
/// their "…react"), "shellscript", "go", "rust", …; "plaintext" when unknown.
std::string lspLanguageId(const std::filesystem::path& file);

/// Where a program is looked for: its path, or nullopt when it is not installed. Injected so that
/// what a test expects does not depend on the machine (production: findProgram of
/// core/process/program_lookup.h with $PATH).
using ProgramFinder = std::function<std::optional<std::string>(const std::string& program)>;

/// The servers that serve `file`: its extension is one of theirs (case-sensitive, as opencode),
/// they are not disabled, their program is found; a server replacedBy another that serves the file
/// too is left out. Empty when `settings` is not enabled. In the order of `settings.servers`.
std::vector<const LspServerConfig*> serversForFile(const LspSettings& settings, const std::filesystem::path& file,
                                                   const ProgramFinder& findProgram);

/// The project root for `file` under `server`: the nearest folder from the file's own up to
/// `workspace` (inclusive) holding one of its rootMarkers; `workspace` when none is found, when it
/// has no markers, or when the file is not inside the workspace. Never above the workspace.
std::filesystem::path lspProjectRoot(const LspServerConfig& server, const std::filesystem::path& file,
                                     const std::filesystem::path& workspace);

} // namespace toold::core
