#include "builtins/checkpoint/checkpoint_diff.h"

#include "builtins/text/unified_diff.h"

#include <cstdio>

namespace toold::builtins {

namespace {

using core::EntryKind;
using core::FileRecord;

std::string octal(mode_t mode) {
  char text[16];
  std::snprintf(text, sizeof text, "%o", static_cast<unsigned>(mode));
  return text;
}

// What a version shows in a diff: a file's text, a symlink as its target; nullopt with a reason
// for what cannot be shown as lines.
struct Shown {
  std::string text;
  std::string unshown; ///< why the content is not shown as lines (binary, hash only, not in the store)
};

Shown shownOf(const std::optional<FileRecord>& record, const core::ChunkStore& store) {
  if (!record || record->kind == EntryKind::Folder) return {};
  if (record->kind == EntryKind::Symlink) return {"symlink -> " + record->linkTarget + "\n", {}};
  if (record->hashOnly) return {{}, "over the size limit, recorded by hash only"};
  auto bytes = core::recordedContent(*record, store);
  if (bytes.index() == 1) return {{}, std::get<1>(bytes)};
  std::string& text = std::get<0>(bytes);
  if (text.find('\0') != std::string::npos) return {{}, "binary"};
  return {std::move(text), {}};
}

} // namespace

CheckpointDiff diffOfChange(const core::RangeChange& change, const core::ChunkStore& store) {
  CheckpointDiff diff;
  for (const auto& step : core::diffStates(change.before, change.after)) {
    nlohmann::json entry{{"path", step.path}, {"change", core::changeKindName(step.kind)}};
    if (!step.fromPath.empty()) entry["from"] = step.fromPath;
    const std::string shownPath = step.fromPath.empty() ? step.path : step.fromPath + " => " + step.path;
    if (step.kind == core::ChangeKind::Renamed)
      diff.text += "rename from " + step.fromPath + "\nrename to " + step.path + "\n";
    if (step.modeChanged && step.before && step.after)
      diff.text += "Index: " + step.path + "\nold mode " + octal(step.before->mode) + "\nnew mode " +
                   octal(step.after->mode) + "\n";
    const Shown before = shownOf(step.before, store), after = shownOf(step.after, store);
    int additions = 0, deletions = 0;
    if (!before.unshown.empty() || !after.unshown.empty()) {
      const std::string& why = before.unshown.empty() ? after.unshown : before.unshown;
      diff.text += "Index: " + shownPath + "\n" + (why == "binary" ? "Binary files differ" : "Not shown: " + why) + "\n";
    } else if (before.text != after.text || step.kind == core::ChangeKind::Created || step.kind == core::ChangeKind::Deleted) {
      auto lines = unifiedDiff(shownPath, before.text, after.text);
      diff.text += lines.text;
      additions = lines.additions;
      deletions = lines.deletions;
    }
    entry["additions"] = additions;
    entry["deletions"] = deletions;
    diff.files.push_back(std::move(entry));
  }
  return diff;
}

} // namespace toold::builtins
