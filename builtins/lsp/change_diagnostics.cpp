#include "builtins/lsp/change_diagnostics.h"

#include "builtins/lsp/diagnostics_metadata.h"

#include <mutex>

namespace toold::builtins {

using json = nlohmann::json;
using core::LspDiagnostic;

namespace {

std::string relativeTo(const std::filesystem::path& path, const std::filesystem::path& workspace) {
  const auto relative = path.lexically_relative(workspace);
  if (relative.empty() || *relative.begin() == "..") return path.string();
  return relative.string();
}

/// `<diagnostics file="…">` with up to 20 error lines, then `... and N more`.
std::string block(const std::string& file, const std::vector<const LspDiagnostic*>& errors) {
  std::string out = "<diagnostics file=\"" + file + "\">\n";
  for (std::size_t i = 0; i < errors.size() && i < kMaxErrorsPerFile; ++i)
    out += core::formatDiagnosticLine(*errors[i]) + "\n";
  if (errors.size() > kMaxErrorsPerFile) out += "... and " + std::to_string(errors.size() - kMaxErrorsPerFile) + " more\n";
  return out + "</diagnostics>";
}

std::string joinNotes(const std::vector<std::string>& notes) {
  std::string joined;
  for (const auto& note : notes) joined += (joined.empty() ? "" : "; ") + note;
  return joined;
}

} // namespace

void checkChangedFiles(std::shared_ptr<core::LspService> lsp, std::vector<ChangedText> files,
                       std::function<void(std::vector<FileDiagnostics>)> done) {
  std::vector<FileDiagnostics> results(files.size());
  std::vector<std::size_t> asked;
  for (std::size_t i = 0; i < files.size(); ++i) {
    results[i].file = std::move(files[i]);
    if (lsp && results[i].file.bytes.size() <= kMaxLspDocumentBytes && lsp->serves(results[i].file.path))
      asked.push_back(i);
  }
  if (asked.empty()) return done(std::move(results));
  struct Gather {
    std::mutex mutex;
    std::vector<FileDiagnostics> results;
    std::size_t left = 0;
    std::function<void(std::vector<FileDiagnostics>)> done;
  };
  auto gather = std::make_shared<Gather>();
  gather->results = std::move(results);
  gather->left = asked.size();
  gather->done = std::move(done);
  for (const std::size_t i : asked) {
    // The text goes to the servers; the answer keeps only what it shows.
    std::string text = std::move(gather->results[i].file.bytes);
    gather->results[i].file.bytes.clear();
    lsp->touch(gather->results[i].file.path, std::move(text), core::LspService::Touch::Changed,
               [gather, i](core::LspFileReport report) {
                 bool last = false;
                 {
                   std::lock_guard lock(gather->mutex);
                   gather->results[i].report = std::move(report);
                   last = --gather->left == 0;
                 }
                 if (last) gather->done(std::move(gather->results));
               });
  }
}

std::vector<OtherFileErrors> otherFilesWithNewErrors(const std::map<std::filesystem::path, std::vector<LspDiagnostic>>& before,
                                                     const std::map<std::filesystem::path, std::vector<LspDiagnostic>>& now,
                                                     const std::filesystem::path& changed) {
  std::vector<OtherFileErrors> others;
  for (const auto& [path, errors] : now) {
    if (path == changed || errors.empty()) continue;
    if (auto old = before.find(path); old != before.end() && old->second == errors) continue;
    others.push_back(OtherFileErrors{path, errors});
    if (others.size() >= kMaxOtherFiles) break;
  }
  return others;
}

void appendDiagnostics(std::string& text, json& metadata, const std::vector<FileDiagnostics>& files,
                       DiagnosticsWording wording, const std::filesystem::path& workspace,
                       const std::vector<OtherFileErrors>& others) {
  json entries = json::array();
  std::vector<std::vector<RankedItem>> entryItems;
  for (const auto& file : files) {
    const auto& report = file.report;
    if (report.servers.empty()) continue;
    std::vector<bool> caused(report.diagnostics.size(), true);
    if (report.before) caused = core::causedByChange(report.diagnostics, *report.before, file.file.changes);
    std::vector<const LspDiagnostic*> shown;
    std::size_t earlier = 0;
    std::vector<RankedItem> items;
    for (std::size_t i = 0; i < report.diagnostics.size(); ++i) {
      const auto& diagnostic = report.diagnostics[i];
      json item = core::diagnosticToJson(diagnostic);
      if (report.before) item["new"] = static_cast<bool>(caused[i]);
      items.push_back({std::move(item), diagnosticRank(diagnostic.severity, caused[i])});
      if (diagnostic.severity != 1) continue;
      if (caused[i]) shown.push_back(&diagnostic);
      else ++earlier;
    }
    const std::string relative = relativeTo(file.file.path, workspace);
    if (!shown.empty()) {
      text += wording == DiagnosticsWording::ThisFile ? "\n\nLSP errors detected in this file, please fix:\n"
                                                      : "\n\nLSP errors detected in " + relative + ", please fix:\n";
      text += block(file.file.display, shown);
    }
    if (earlier > 0) {
      text += "\n\n" + std::to_string(earlier) + (earlier == 1 ? " error" : " errors") + " in " +
              (wording == DiagnosticsWording::ThisFile ? std::string("this file") : relative) +
              (earlier == 1 ? " was" : " were") + " already there before this change; not listed.";
    }
    if (!report.received) {
      text += "\n\nLSP diagnostics for " + (wording == DiagnosticsWording::ThisFile ? std::string("this file") : relative) +
              " are pending: " + joinNotes(report.notes) + ".";
    }
    json entry{{"file", relative}, {"servers", report.servers}, {"received", report.received}, {"items", json::array()}};
    entryItems.push_back(std::move(items));
    if (!report.notes.empty()) entry["pending"] = report.notes;
    if (report.before) entry["newErrors"] = shown.size();
    entries.push_back(std::move(entry));
  }
  if (!others.empty()) {
    text += "\n\nLSP errors detected in other files:";
    for (const auto& other : others) {
      std::vector<const LspDiagnostic*> errors;
      std::vector<RankedItem> items;
      for (const auto& diagnostic : other.errors) {
        errors.push_back(&diagnostic);
        items.push_back({core::diagnosticToJson(diagnostic), diagnosticRank(diagnostic.severity, false)});
      }
      text += "\n" + block(other.path.string(), errors);
      entries.push_back(json{{"file", relativeTo(other.path, workspace)}, {"other", true}, {"items", json::array()}});
      entryItems.push_back(std::move(items));
    }
  }
  if (entries.empty()) return;
  std::vector<std::size_t> omitted;
  auto kept = keepWithinBudget(std::move(entryItems), omitted);
  for (std::size_t e = 0; e < entries.size(); ++e) {
    entries[e]["items"] = std::move(kept[e]);
    if (omitted[e] > 0) entries[e]["omitted"] = omitted[e];
  }
  metadata["diagnostics"] = std::move(entries);
}

} // namespace toold::builtins
