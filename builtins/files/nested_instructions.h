// The instructions of the folders a `read` enters. A project may keep rules for one part of its
// tree in that folder's AGENTS.md (or CLAUDE.md); the host's system prompt carries only the
// workspace root's. As opencode's read does, the first read of a file below such a folder appends
// the folder's instructions to the answer, in a <system-reminder>, so the model follows the rules
// of the code it is about to change.
//
// Each folder is looked at once per session: between the file's folder and the workspace root
// (the root itself excluded, as the host has it already), the first of AGENTS.md and CLAUDE.md that
// is a regular file is shown, once. Instruction files are reached from the folder the read held,
// through "..", and opened without following symlinks, so a reminder never shows a file outside
// the workspace; the walk must end at the workspace root's own inode, or nothing is shown.
#pragma once

#include "core/output/output_bounding.h"

#include <cstddef>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace toold::builtins {

/// What one read appends, and what to remember once it was sent.
struct InstructionReminder {
  /// `\n\n<system-reminder>\n…\n</system-reminder>`, or empty when there is nothing new.
  std::string text;
  /// The instruction files shown, for the answer's metadata (`loaded`).
  std::vector<std::string> loaded;
  /// The folders looked at whose instructions (or lack of them) the session has now seen.
  std::vector<std::filesystem::path> folders;
};

class NestedInstructions {
public:
  /// An instruction file is shown up to this many bytes; the reminder says where the rest is.
  static constexpr std::size_t kMaxFileBytes = 8 * 1024;
  /// A session remembers at most this many folders; past it, it starts over (a repeated reminder
  /// is the only cost).
  static constexpr std::size_t kMaxFoldersPerSession = 4096;
  /// A file more than this many folders below the workspace root gets no reminder.
  static constexpr std::size_t kMaxDepth = 64;

  /// The reminder for a read, by `sessionID`, of the file `canonical` whose folder is open as
  /// `folder`, in the workspace `root` (canonical). Nothing is remembered yet: call `shown` once
  /// the answer carrying it is sent. The reminder takes at most a quarter of `budget`.
  InstructionReminder lookUp(const std::string& sessionID, const std::filesystem::path& canonical, int folder,
                             const std::filesystem::path& root, const core::BoundingLimits& budget) const;

  /// Remembers that `sessionID` was shown the reminder's folders.
  void shown(const std::string& sessionID, const InstructionReminder& reminder);

private:
  bool seen(const std::string& sessionID, const std::filesystem::path& folder) const;

  mutable std::mutex mutex_;
  std::map<std::string, std::set<std::filesystem::path>> seen_;
};

/// The reminder's text for instruction files given as (path, text) pairs, each text cut on a line
/// boundary to fit a quarter of `budget` when it must (saying so, and where the whole file is).
/// Files that no longer fit at all are left out; `shownCount` receives how many were kept.
std::string reminderText(const std::vector<std::pair<std::string, std::string>>& files,
                         const core::BoundingLimits& budget, std::size_t& shownCount);

} // namespace toold::builtins
