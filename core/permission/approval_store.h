// The person's "always" answers: allow rules saved per Location under the data folder, so an
// approval given once is not asked again — also after a restart. One JSON file per Location,
// rewritten atomically on every change.
#pragma once

#include "core/permission/permission_rule.h"

#include <filesystem>
#include <string>

namespace toold::core {

class ApprovalStore {
public:
  /// Loads the approvals saved for `locationDirectory`. A file that cannot be read or parsed is
  /// logged and moved aside (never silently overwritten), and the store starts empty.
  ApprovalStore(const std::filesystem::path& dataDir, std::filesystem::path locationDirectory);

  /// The saved allow rules, in the order they were given. Not thread-safe: the owner locks.
  const Ruleset& rules() const { return rules_; }

  /// Adds the rules not saved yet and writes the file. Returns an empty string, or why the file
  /// could not be written (the rules still apply until toold exits).
  std::string add(const Ruleset& rules);

  struct Removal {
    bool removed = false; ///< the rule was saved
    std::string error;    ///< why the file could not be written (the rule is gone until toold exits)
  };
  /// Removes the saved rule {action, resource} and writes the file.
  Removal remove(const std::string& action, const std::string& resource);

  /// `<dataDir>/approvals/<hash of the directory>.json`.
  const std::filesystem::path& file() const { return file_; }

private:
  void load();
  std::string save() const;

  std::filesystem::path directory_;
  std::filesystem::path file_;
  Ruleset rules_;
};

} // namespace toold::core
