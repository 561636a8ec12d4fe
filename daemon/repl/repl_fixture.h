// `:record FILE`: the conversation so far, written in the fixture runner's format
// (docs/fixtures.md), so a behaviour found by hand becomes a test in one step.
#pragma once

#include "daemon/repl/repl_touched_files.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace toold::repl {

using nlohmann::json;

struct RecordedMessage {
  bool sent; ///< by the REPL; else received from toold
  json message;
};

/// Where the conversation happened, for what the fixture must set up and what it must not pin.
struct FixtureSetting {
  std::vector<std::string> tooldArgs; ///< toold's options worth keeping (%args)
  std::string workspace;              ///< canonical: toold's answers name it so; `${workspace}`
  std::string dataDir;                ///< toold's data folder (saved output, journal); `${data}`
  std::vector<WorkspaceFile> files;   ///< the workspace before the session (toold.json, what calls named)
  std::size_t filesLeftOut = 0;       ///< touched but too large or too many to keep
};

/// The fixture text. Sends are kept as sent, except that the ids of toold's requests and
/// snapshot ids become captures (`"$capture:ask1"`, then `"${ask1}"`) and the workspace's and
/// data folder's paths become `${workspace}` and `${data}`. Received messages become patterns with
/// their volatile parts as `"$any"` (toold's version, call metadata, saved output paths, the
/// params of toold's own requests and of background job notifications, times and process ids)
/// or as `$re:` patterns (texts holding durations or timestamps). Progress notifications, whose
/// number is timing, are skipped (`%skip`). Requests whose answer has not arrived are left out,
/// so the fixture's end does not meet an answer it does not expect. The files come first, as
/// `%file` (or `put`, for content a `%file` cannot hold).
std::string writeFixture(const std::vector<RecordedMessage>& transcript, const FixtureSetting& setting);

/// `text` as a `$re:` pattern when it holds something that differs from run to run (durations,
/// timestamps); nullopt when it is the same every run. `workspace` and `dataDir` (when not empty)
/// match any path there.
std::optional<std::string> volatilePattern(const std::string& text, const std::string& workspace, const std::string& dataDir);

} // namespace toold::repl
