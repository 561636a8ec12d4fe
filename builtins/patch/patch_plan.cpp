#include "builtins/patch/patch_plan.h"

#include "builtins/files/read_stamps.h"
#include "builtins/patch/patch_application.h"
#include "builtins/text/text_encoding.h"
#include "builtins/tool_support.h"

#include <sys/stat.h>

namespace toold::builtins {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kFailed = "apply_patch verification failed: ";

/// One path's state while the operations run: what it had on disk, and what it has now.
struct FileState {
  std::optional<LoadedFile> original;
  std::optional<std::string> current;
  std::string display;
};

class Planner {
public:
  Planner(const FileTools& files, const std::string& sessionID, const core::Location& location)
      : files_(files), sessionID_(sessionID), location_(location) {}

  std::variant<PatchPlan, std::string> run(const std::vector<ResolvedOperation>& operations) {
    for (const auto& resolved : operations) {
      std::string error;
      switch (resolved.operation->kind) {
      case PatchFileOp::Kind::Add: error = add(resolved); break;
      case PatchFileOp::Kind::Delete: error = remove(resolved); break;
      case PatchFileOp::Kind::Update: error = update(resolved); break;
      }
      if (!error.empty()) return std::string(kFailed) + error;
    }
    for (auto& [path, state] : states_) {
      const std::optional<std::string> before = state.original ? std::optional(state.original->bytes) : std::nullopt;
      if (before == state.current) continue;
      FileChange change;
      change.target = path;
      change.content = state.current;
      change.previous = before;
      change.previousMode = state.original ? state.original->mode : 0644;
      if (auto mode = createModes_.find(path); mode != createModes_.end()) change.createMode = mode->second;
      plan_.changes.push_back(std::move(change));
    }
    return std::move(plan_);
  }

private:
  // The state of `path`, loading it from disk the first time. Returns an error for the model.
  std::string load(const core::ResolvedPath& path, FileState*& state) {
    auto [it, inserted] = states_.try_emplace(path.canonical);
    state = &it->second;
    if (!inserted) return {};
    state->display = path.given.string();
    auto held = core::holdLocation(path, core::HoldPurpose::Read);
    if (auto* error = std::get_if<std::string>(&held)) return *error;
    const auto& location = std::get<core::HeldLocation>(held);
    if (!location.exists()) return {};
    auto loaded = loadFile(location);
    if (auto* error = std::get_if<std::string>(&loaded)) return *error;
    state->original = std::move(std::get<LoadedFile>(loaded));
    state->current = state->original->bytes;
    return {};
  }

  // A file this patch has not written yet must match the session's stamp, if any; replacing an
  // existing file whole needs one.
  std::string checkOriginal(FileState& state, const fs::path& path, StampRule rule, std::string_view what) {
    if (!state.original || state.current != state.original->bytes) return {};
    auto refusal = checkStamp(files_.stamps, sessionID_, path, state.display, state.original->identity,
                              state.original->bytes, rule);
    if (refusal.empty()) return {};
    return std::string(what) + ": " + refusal;
  }

  void record(std::string type, const core::ResolvedPath& path, const core::ResolvedPath* moveTo,
              const std::optional<std::string>& before, const std::optional<std::string>& after) {
    PatchedFile file;
    file.type = std::move(type);
    file.filePath = path.given.string();
    const auto& shown = moveTo ? *moveTo : path;
    file.relativePath = core::workspaceRelative(shown, location_);
    if (moveTo) file.movePath = moveTo->given.string();
    file.diff = unifiedDiff(file.relativePath, before ? toLf(*before) : "", after ? toLf(*after) : "");
    const char letter = file.type == "add" ? 'A' : file.type == "delete" ? 'D' : 'M';
    plan_.summary += (plan_.summary.empty() ? "" : "\n") + std::string(1, letter) + " " + file.relativePath;
    plan_.files.push_back(std::move(file));
  }

  std::string add(const ResolvedOperation& resolved) {
    FileState* state = nullptr;
    if (auto error = load(resolved.path, state); !error.empty()) return error;
    if (resolved.path.isDirectory) return "Add File " + state->display + ": a directory is in the way";
    if (state->current) {
      auto refusal = checkOriginal(*state, resolved.path.canonical, StampRule::Required, "Add File " + state->display);
      if (!refusal.empty()) return refusal + " (it already exists; use Update File to change it)";
    }
    const auto before = state->current;
    state->current = resolved.operation->contents;
    record("add", resolved.path, nullptr, before, state->current);
    return {};
  }

  std::string remove(const ResolvedOperation& resolved) {
    FileState* state = nullptr;
    if (auto error = load(resolved.path, state); !error.empty()) return "Delete File " + state->display + ": " + error;
    if (!state->current) return "Delete File " + state->display + ": the file does not exist";
    if (auto refusal = checkOriginal(*state, resolved.path.canonical, StampRule::IfStamped, "Delete File " + state->display);
        !refusal.empty())
      return refusal;
    const auto before = state->current;
    state->current.reset();
    record("delete", resolved.path, nullptr, before, std::nullopt);
    return {};
  }

  std::string update(const ResolvedOperation& resolved) {
    FileState* state = nullptr;
    const auto& operation = *resolved.operation;
    if (auto error = load(resolved.path, state); !error.empty())
      return "Failed to read file to update: " + resolved.path.given.string() + ": " + error;
    if (!state->current) return "Failed to read file to update: " + state->display + " (it does not exist)";
    if (auto refusal = checkOriginal(*state, resolved.path.canonical, StampRule::IfStamped, "Update File " + state->display);
        !refusal.empty())
      return refusal;
    auto decoded = decodeText(*state->current);
    if (auto* error = std::get_if<TextDecodeError>(&decoded)) return "File " + state->display + " " + error->message;
    const auto& text = std::get<DecodedText>(decoded);
    std::vector<std::string> lines;
    for (std::size_t start = 0; start < text.text.size();) {
      std::size_t end = text.text.find('\n', start);
      if (end == std::string::npos) end = text.text.size();
      lines.emplace_back(text.text.substr(start, end - start));
      start = end + 1;
    }
    auto applied = applyChunks(lines, operation.chunks, core::workspaceRelative(resolved.path, location_));
    if (auto* error = std::get_if<ChunkError>(&applied)) return error->message;
    std::string lf;
    for (const auto& line : std::get<std::vector<std::string>>(applied)) lf += line + "\n";
    // The final newline is kept as the file had it (a file without one stays without one).
    if (!text.text.empty() && !text.text.ends_with('\n') && !lf.empty()) lf.pop_back();
    std::string bytes = encodeLike(text, lf);
    const auto before = state->current;

    if (!resolved.moveTo || resolved.moveTo->canonical == resolved.path.canonical) {
      state->current = bytes;
      record("update", resolved.path, nullptr, before, state->current);
      return {};
    }
    FileState* target = nullptr;
    if (auto error = load(*resolved.moveTo, target); !error.empty()) return "Move to " + target->display + ": " + error;
    if (resolved.moveTo->isDirectory) return "Move to " + target->display + ": a directory is in the way";
    if (target->current) {
      auto refusal = checkOriginal(*target, resolved.moveTo->canonical, StampRule::Required, "Move to " + target->display);
      if (!refusal.empty()) return refusal;
    }
    if (state->original) createModes_[resolved.moveTo->canonical] = state->original->mode;
    state->current.reset();
    target->current = bytes;
    record("move", resolved.path, &*resolved.moveTo, before, bytes);
    return {};
  }

  const FileTools& files_;
  const std::string& sessionID_;
  const core::Location& location_;
  std::map<fs::path, FileState> states_;
  std::map<fs::path, mode_t> createModes_; ///< a moved file keeps its mode at its new path
  PatchPlan plan_;
};

} // namespace

std::variant<PatchPlan, std::string> planPatch(const std::vector<ResolvedOperation>& operations, const FileTools& files,
                                               const std::string& sessionID, const core::Location& location) {
  return Planner(files, sessionID, location).run(operations);
}

} // namespace toold::builtins
