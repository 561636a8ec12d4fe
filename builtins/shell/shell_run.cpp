#include "builtins/shell/shell_run.h"

#include "builtins/shell/output_log.h"
#include "builtins/shell/progress_throttle.h"
#include "builtins/text/ascii_run.h"

#include <sys/stat.h>

#include <boost/asio/steady_timer.hpp>
#include <spdlog/spdlog.h>

#include <cerrno>
#include <cstring>
#include <atomic>
#include <mutex>
#include <vector>

namespace toold::builtins {

namespace asio = boost::asio;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

/// `log` and `digest` are written on the runner's strand (output and exit arrive there) under
/// `outputMutex`, which only a hand-over to the background contends for (once, from a timer);
/// what other threads read of them (bash_jobs, bash_output) is mirrored in `bytes` and `path`.
/// The throttle is shared with the progress timer (any loop thread) under `progressMutex`.
/// `progress` is only called, never changed, and not at all once `progressDetached`.
struct ShellRun::State {
  State(asio::io_context& io, ShellRunOptions options)
      : log(options.logFolder, options.memoryBytes, options.maxLogBytes, std::move(options.store)), digest(options.digestLimits), progressTimer(io),
        progress(std::move(options.progress)),
        started(Clock::now()) {
    if (options.memoryBytes == 0) log.persist(); // read while it runs: the file exists from the start
    publishPath();
  }

  /// On the strand, once the log's file exists.
  void publishPath() {
    if (pathPublished || !log.path()) return;
    std::lock_guard lock(pathMutex);
    path = log.path();
    pathPublished = true;
  }

  std::mutex outputMutex;
  OutputLog log;
  OutputDigest digest;
  bool pathPublished = false;
  std::atomic<std::uint64_t> bytes{0};
  std::atomic<std::uint64_t> orderedBytes{0};
  mutable std::mutex pathMutex;
  std::optional<fs::path> path;

  std::mutex progressMutex;
  ProgressThrottle throttle;
  asio::steady_timer progressTimer;
  bool timerArmed = false;
  bool ended = false;
  bool progressDetached = false; ///< handed over to the background: the call's progress is over
  const std::function<void(nlohmann::json)> progress;
  const Clock::time_point started;
};

namespace {

/// The update's text without the control characters a terminal would not show (NUL and the
/// like; tab, newline, carriage return, backspace and escape stay for the client's terminal view):
/// they show nothing, and JSON would spell each one as a six-byte escape.
std::string shownControls(std::string_view text) {
  // Runs at a time: a binary stream is runs of hidden bytes (skipped sixteen at a time), text runs
  // of shown ones.
  std::string shown;
  shown.reserve(text.size());
  const std::size_t size = text.size();
  std::size_t at = 0;
  while (at < size) {
    std::size_t run = at;
    while (run < size && !isSilentControl(static_cast<unsigned char>(text[run]))) ++run;
    shown.append(text.data() + at, run - at);
    at = silentControlRunEnd(text.data(), run, size);
  }
  return shown;
}

/// Sends the update, unless it shows nothing: output that is all controls a terminal does not
/// show (a binary stream's NULs) made an update per 8 KiB, each with an empty text.
void sendProgress(const std::function<void(nlohmann::json)>& progress, const ProgressUpdate& update) {
  std::string shown = shownControls(update.text);
  if (shown.empty() && update.skipped == 0) return;
  nlohmann::json json{{"output", std::move(shown)}, {"offset", update.offset}};
  if (update.skipped > 0) json["skipped"] = update.skipped;
  progress(std::move(json));
}

/// Why `cwd` cannot be a working directory, or nothing: checked right before the spawn, since it
/// may have gone while a permission was being asked.
std::string workdirProblem(const fs::path& cwd) {
  struct stat info {};
  if (::stat(cwd.c_str(), &info) != 0) {
    if (errno == ENOENT) return "Working directory does not exist: " + cwd.string();
    return "Working directory cannot be used: " + cwd.string() + ": " + std::strerror(errno);
  }
  if (!S_ISDIR(info.st_mode)) return "Working directory is not a directory: " + cwd.string();
  return {};
}

} // namespace

ShellRun::ShellRun(asio::io_context& io, ShellRunOptions options)
    : state_(std::make_shared<State>(io, std::move(options))) {}

std::shared_ptr<ShellRun> ShellRun::start(asio::io_context& io, core::ProcessRunner& runner, ShellRunOptions options,
                                          core::CancellationToken cancellation,
                                          std::function<void(ShellRunResult)> done) {
  auto spec = std::move(options.spec);
  auto run = std::make_shared<ShellRun>(io, std::move(options));
  if (auto problem = workdirProblem(spec.cwd); !problem.empty()) {
    ShellRunResult result;
    result.outcome.spawnError = std::move(problem);
    done(std::move(result));
    return run;
  }
  if (spec.stdinData) spec.stdinData.reset(); // stdin is /dev/null: nobody can answer a prompt
  runner.start(
      std::move(spec), std::move(cancellation), [run](core::OutputStream, std::string_view bytes) { run->onOutput(bytes); },
      [run, done = std::move(done)](core::ProcessOutcome outcome) { run->onExit(std::move(outcome), done); });
  return run;
}

std::uint64_t ShellRun::outputBytes() const { return state_->bytes.load(std::memory_order_relaxed); }

std::uint64_t ShellRun::orderedLogBytes() const { return state_->orderedBytes.load(std::memory_order_relaxed); }

std::optional<fs::path> ShellRun::logPath() const {
  std::lock_guard lock(state_->pathMutex);
  return state_->path;
}

void ShellRun::onOutput(std::string_view bytes) {
  {
    std::lock_guard lock(state_->outputMutex);
    state_->log.append(bytes);
    state_->digest.append(bytes);
    state_->bytes.store(state_->log.size(), std::memory_order_relaxed);
    state_->orderedBytes.store(state_->log.orderedBytes(), std::memory_order_relaxed);
    state_->publishPath();
  }
  if (!state_->progress) return;
  std::vector<ProgressUpdate> due;
  {
    std::lock_guard lock(state_->progressMutex);
    if (state_->progressDetached) return;
    const auto now = Clock::now();
    if (auto update = state_->throttle.add(bytes, now)) due.push_back(std::move(*update));
    while (auto update = state_->throttle.flush(now)) due.push_back(std::move(*update));
    if (!state_->timerArmed && state_->throttle.deadline()) armProgressTimer();
  }
  for (const auto& update : due) sendProgress(state_->progress, update);
}

/// Requires progressMutex. Fires at the throttle's deadline, so output that trickles in is shown within
/// 100 ms even when nothing more arrives.
void ShellRun::armProgressTimer() {
  const auto deadline = state_->throttle.deadline();
  if (!deadline) return;
  state_->timerArmed = true;
  state_->progressTimer.expires_at(*deadline);
  state_->progressTimer.async_wait([weak = std::weak_ptr<State>(state_), self = weak_from_this()](
                                       const boost::system::error_code& error) {
    auto state = weak.lock();
    if (!state || error) return;
    std::vector<ProgressUpdate> due;
    {
      std::lock_guard lock(state->progressMutex);
      state->timerArmed = false;
      if (state->ended || state->progressDetached) return;
      while (auto update = state->throttle.flush(Clock::now())) due.push_back(std::move(*update));
      if (auto run = self.lock(); run && state->throttle.deadline()) run->armProgressTimer();
    }
    for (const auto& update : due) sendProgress(state->progress, update);
  });
}

ShellRun::SoFar ShellRun::handOver() {
  std::optional<ProgressUpdate> last;
  {
    std::lock_guard lock(state_->progressMutex);
    if (state_->progress && !state_->progressDetached && !state_->ended) last = state_->throttle.drain();
    state_->progressDetached = true;
    state_->progressTimer.cancel();
  }
  // Sent before the answer that says the command moved: the call's progress ends with what it
  // had printed.
  if (last) sendProgress(state_->progress, *last);
  SoFar soFar;
  std::lock_guard lock(state_->outputMutex);
  soFar.text = state_->digest.render();
  soFar.logPath = state_->log.persist();
  soFar.logError = state_->log.error();
  soFar.outputBytes = state_->log.size();
  soFar.outputLines = state_->digest.totalLines();
  state_->publishPath();
  return soFar;
}

void ShellRun::onExit(core::ProcessOutcome outcome, const std::function<void(ShellRunResult)>& done) {
  ShellRunResult result;
  std::optional<ProgressUpdate> last;
  {
    std::lock_guard lock(state_->progressMutex);
    state_->ended = true;
    state_->progressTimer.cancel();
    if (state_->progress && !state_->progressDetached) last = state_->throttle.drain();
  }
  {
    std::lock_guard lock(state_->outputMutex);
    result.text = state_->digest.render();
    // The whole output must stay readable when the model is shown only part of it, and when the
    // call was interrupted (its answer went out before the output ended).
    if (result.text.truncated || outcome.cancelled || outcome.timedOut || state_->log.path()) {
      result.logPath = state_->log.persist();
      result.logStore = state_->log.store();
    }
    result.logKept = state_->log.finish();
    state_->orderedBytes.store(state_->log.orderedBytes(), std::memory_order_relaxed);
    result.logError = state_->log.error();
    result.outputBytes = state_->log.size();
    result.outputLines = state_->digest.totalLines();
    state_->publishPath();
  }
  result.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - state_->started);
  if (last) sendProgress(state_->progress, *last);
  if (!result.logError.empty()) spdlog::warn("shell output log: {}", result.logError);
  result.outcome = std::move(outcome);
  done(std::move(result));
}

} // namespace toold::builtins
