// MCP's `notifications/progress` for one tools/call: a tool's progress updates (toold's free-form
// JSON) become {progressToken, progress, total?, message?}, so that a host shows what a running
// command prints rather than bare counts.
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstddef>
#include <mutex>
#include <optional>
#include <string>

namespace toold::daemon {

/// How much of a command's output one progress message shows: the newest lines, at most this
/// many, and at most this many bytes (a host shows it in a status line, not a terminal).
inline constexpr std::size_t kProgressMessageLines = 3;
inline constexpr std::size_t kProgressMessageBytes = 400;

class McpProgress {
public:
  explicit McpProgress(nlohmann::json token) : token_(std::move(token)) {}

  /// The notification's params for one update. `progress` counts the updates (it must increase);
  /// `total` is the update's own when it states one (a number), and `message` is the update's
  /// string, its `message`, or the newest lines of its `output` (the shell tool's live output,
  /// which arrives in chunks that may end mid-line). Thread-safe.
  nlohmann::json next(const nlohmann::json& update);
  /// A keep-alive's params when nothing was sent for `quiet` (else nothing): the newest message
  /// again (a host shows it as it was), with a progress that still increases.
  std::optional<nlohmann::json> keepAlive(std::chrono::steady_clock::duration quiet);

private:
  std::mutex mutex_;
  nlohmann::json token_;
  std::uint64_t count_ = 0;
  std::string tail_; ///< the end of the output seen so far, enough for the newest lines
  std::string message_; ///< the newest message sent
  std::chrono::steady_clock::time_point lastSent_ = std::chrono::steady_clock::now();
};

/// The newest non-blank lines of `text`, at most `lines` of them and `bytes` in all (cut at the
/// front, at a UTF-8 character boundary), joined with '\n'. Carriage returns end a line as a
/// terminal would overwrite it.
std::string newestLines(const std::string& text, std::size_t lines, std::size_t bytes);

} // namespace toold::daemon
