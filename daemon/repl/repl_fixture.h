// `:record FILE`: the conversation so far, written in the fixture runner's format
// (docs/fixtures.md), so a behaviour found by hand becomes a test in one step.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace toold::repl {

using nlohmann::json;

struct RecordedMessage {
  bool sent; ///< by the REPL; else received from toold
  json message;
};

/// The fixture text. Sends are kept as sent, except that the ids of toold's requests and
/// snapshot ids become captures (`"$capture:ask1"`, then `"${ask1}"`) and the workspace's path
/// becomes `${workspace}`. Received messages become patterns with their volatile parts as
/// `"$any"`: toold's version, call metadata and saved output paths, and the params of toold's
/// own requests and notifications about background jobs. Requests whose answer has not arrived are
/// left out, so the fixture's end does not meet an answer it does not expect.
/// `config` is the workspace's toold.json (empty when there is none): it decides permission asks,
/// so the fixture carries it as a `%file`.
std::string writeFixture(const std::vector<RecordedMessage>& transcript, const std::vector<std::string>& tooldArgs,
                         const std::string& workspace, const std::string& config);

} // namespace toold::repl
