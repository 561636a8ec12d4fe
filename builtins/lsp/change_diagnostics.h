// The language servers' verdict on files a tool just changed, in the tool's answer: opencode's
// `LSP errors detected in this file, please fix:` blocks (errors only, 20 per file), with one
// rule beyond opencode: when the server's diagnostics of the version before the change were
// known, only the errors the change caused are listed, and those that were there before are
// counted, not listed — so the model fixes what it broke instead of wandering off. A server that
// did not answer in time makes the answer say the diagnostics are pending, and why.
#pragma once

#include "core/lsp/lsp_diagnostic.h"
#include "core/lsp/lsp_service.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace toold::builtins {

/// The largest file toold hands to a language server (servers choke on generated giants).
inline constexpr std::size_t kMaxLspDocumentBytes = 4 * 1024 * 1024;
inline constexpr std::size_t kMaxErrorsPerFile = 20;
inline constexpr std::size_t kMaxOtherFiles = 5;

/// One file a tool wrote.
struct ChangedText {
  std::filesystem::path path;            ///< canonical
  std::string display;                   ///< as the block names it (opencode: the absolute path)
  std::string bytes;                     ///< as written
  std::vector<core::LineChange> changes; ///< before → after, to move the old diagnostics
};

struct FileDiagnostics {
  ChangedText file;
  core::LspFileReport report;
};

/// Sends every file to the servers that serve it and waits (bounded) for their diagnostics;
/// `done` gets one entry per file, in order, from any thread. No service, or no server for any
/// of them: at once.
void checkChangedFiles(std::shared_ptr<core::LspService> lsp, std::vector<ChangedText> files,
                       std::function<void(std::vector<FileDiagnostics>)> done);

/// How the block's header names the file.
enum class DiagnosticsWording {
  ThisFile, ///< "LSP errors detected in this file, please fix:" (edit, write)
  ByPath,   ///< "LSP errors detected in <relative path>, please fix:" (apply_patch)
};

/// Other files whose errors changed with this change (a header edit breaking its callers).
struct OtherFileErrors {
  std::filesystem::path path;
  std::vector<core::LspDiagnostic> errors;
};

/// Appends the blocks to `text` and the structured diagnostics to `metadata["diagnostics"]`.
void appendDiagnostics(std::string& text, nlohmann::json& metadata, const std::vector<FileDiagnostics>& files,
                       DiagnosticsWording wording, const std::filesystem::path& workspace,
                       const std::vector<OtherFileErrors>& others = {});

/// The files other than `changed` that have errors now and did not have the same ones `before`,
/// at most kMaxOtherFiles, by path.
std::vector<OtherFileErrors> otherFilesWithNewErrors(
    const std::map<std::filesystem::path, std::vector<core::LspDiagnostic>>& before,
    const std::map<std::filesystem::path, std::vector<core::LspDiagnostic>>& now, const std::filesystem::path& changed);

} // namespace toold::builtins
