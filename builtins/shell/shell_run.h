// One shell command from spawn to result, on core's process runner: its output spooled to a log
// (OutputLog), digested for the model (OutputDigest) and streamed to the client as throttled
// progress (ProgressThrottle), with the process runner's guarantees (a new session and process
// group, stdin from /dev/null, the call completing at the shell's exit plus a bounded drain, the
// group terminated on timeout or cancellation). Foreground calls and background jobs both run as
// one of these.
#pragma once

#include "builtins/shell/output_digest.h"
#include "core/base/cancellation.h"
#include "core/output/kept_text.h"
#include "core/process/process_runner.h"

#include <boost/asio/io_context.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace toold::core {
class OutputStore;
}

namespace toold::builtins {

struct ShellRunOptions {
  core::ProcessSpec spec;              ///< argv, cwd, environment and timeout, ready to start
  std::filesystem::path logFolder;     ///< the tool-output folder
  /// The folder's store, which counts the log in its budget; null: not counted.
  std::shared_ptr<core::OutputStore> store;
  /// The most the log keeps of the output (its head and tail); 0: all of it.
  std::uint64_t maxLogBytes = 0;
  /// Output kept in memory before the log file is created; 0 creates it at once (background
  /// jobs, whose log is read while they run).
  std::size_t memoryBytes = 64 * 1024;
  /// Live output for the client; empty for none (background jobs).
  std::function<void(nlohmann::json update)> progress;
  /// What the model may be shown of the output (the call's budget, less what bash adds around it).
  DigestLimits digestLimits;
};

struct ShellRunResult {
  core::ProcessOutcome outcome;
  OutputDigest::Rendered text;           ///< the model's view of the output
  std::optional<std::filesystem::path> logPath; ///< the full output's file, when there is one
  /// The store counting that file in the folder's budget (null: none); told when it is removed.
  std::shared_ptr<core::OutputStore> logStore;
  std::string logError;                  ///< non-empty: the log could not be written whole
  core::KeptPart logKept;                ///< how much of the output the log keeps
  std::uint64_t outputBytes = 0;
  std::uint64_t outputLines = 0;
  std::chrono::milliseconds elapsed{0};
};

class ShellRun : public std::enable_shared_from_this<ShellRun> {
public:
  /// Starts the command; `done` runs once, on the runner's strand, when it has ended (or could not
  /// start: see outcome.spawnError). The working directory is checked right before the spawn.
  static std::shared_ptr<ShellRun> start(boost::asio::io_context& io, core::ProcessRunner& runner,
                                         ShellRunOptions options, core::CancellationToken cancellation,
                                         std::function<void(ShellRunResult)> done);

  ShellRun(boost::asio::io_context& io, ShellRunOptions options);
  ShellRun(const ShellRun&) = delete;
  ShellRun& operator=(const ShellRun&) = delete;

  /// While it runs: bytes so far and the log's path (once the file exists). Thread-safe.
  std::uint64_t outputBytes() const;
  /// While it runs: the log's bytes from its start already in their final order (a bounded log's
  /// tail is a ring until the command ends). Thread-safe.
  std::uint64_t orderedLogBytes() const;
  std::optional<std::filesystem::path> logPath() const;

  /// What a foreground command had printed when it was moved to the background.
  struct SoFar {
    OutputDigest::Rendered text;                  ///< the model's view of the output so far
    std::optional<std::filesystem::path> logPath; ///< the log, from the first byte on
    std::string logError;
    std::uint64_t outputBytes = 0;
    std::uint64_t outputLines = 0;
  };
  /// For a foreground command that goes on as a background job: sends the progress still waiting
  /// and no more after it (the call it belonged to is answered), writes the log's file so that it
  /// can be read while the command runs, and returns the output so far. Thread-safe; the result
  /// still comes to `done` when the command ends.
  SoFar handOver();

private:
  struct State;
  void onOutput(std::string_view bytes);
  void onExit(core::ProcessOutcome outcome, const std::function<void(ShellRunResult)>& done);
  void armProgressTimer();

  std::shared_ptr<State> state_;
};

} // namespace toold::builtins
