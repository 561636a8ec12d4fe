// Background jobs: commands started with `background: true`, which outlive the call that started
// them. Each belongs to its session; the model follows one with bash_output, stops it with
// bash_kill and lists them with bash_jobs, and the client is told when one ends (`shell/exited`).
// A session keeps at most 25 finished jobs (the oldest go, with their logs); ending the session,
// or toold, kills its jobs.
#pragma once

#include "builtins/shell/shell_run.h"
#include "core/base/client_channel.h"
#include "core/process/process_runner.h"

#include <boost/asio/io_context.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace toold::builtins {

inline constexpr std::size_t kFinishedJobsKept = 25;
inline constexpr std::size_t kRunningJobsPerSession = 25;

enum class JobState { Running, Exited, Killed, TimedOut, Failed };
std::string_view jobStateName(JobState state); ///< "running", "exited", "killed", "timed out", "failed"

/// A job as the tools and the notification show it.
struct JobView {
  std::string id; ///< "shell-7"
  std::string sessionID;
  std::string command;
  std::string description;
  std::string workdir;
  JobState state = JobState::Running;
  std::optional<int> exitCode;
  std::optional<int> signal;
  std::string error; ///< why it failed to start
  std::optional<std::filesystem::path> logPath;
  std::uint64_t outputBytes = 0;
  /// While it runs: the log's bytes from its start already in order (past them, a bounded log's
  /// tail is a ring until the job ends); nullopt once ended (all of the file).
  std::optional<std::uint64_t> orderedLogBytes;
  std::chrono::system_clock::time_point startedAt;
  std::chrono::milliseconds runtime{0}; ///< so far, or in all once ended
  std::string tail; ///< the end of its output, cleaned (once ended)

  nlohmann::json toJson() const;
};

class ShellJobs : public std::enable_shared_from_this<ShellJobs> {
public:
  ShellJobs(boost::asio::io_context& io, core::ProcessRunner& runner, std::shared_ptr<core::ClientChannel> client);

  struct Request {
    std::string sessionID;
    std::string command;
    std::string description;
    ShellRunOptions run;
    /// Runs once when the job has ended (the call's checkpoint waits for it: core/checkpoint/call_recorder.h).
    std::function<void()> onEnd = {};
  };
  /// Starts a job; returns its view (running, with its log path), or why it cannot start (too
  /// many running in the session).
  std::variant<JobView, std::string> start(Request request);

  /// A foreground command that goes on as a job (bash moves one that is still running at the
  /// foreground limit): it already runs, started with `stop`'s token, which bash_kill and the
  /// session's end cancel.
  struct Adoption {
    std::string sessionID;
    std::string command;
    std::string description;
    std::string workdir;
    std::shared_ptr<ShellRun> run;
    core::CancellationSource stop;
    std::chrono::system_clock::time_point startedAt;
    std::chrono::steady_clock::time_point startedSteady;
    std::uint64_t readOffset = 0; ///< where bash_output goes on: past what the call's answer showed
    std::function<void()> onEnd = {}; ///< as Request::onEnd
  };
  struct Adopted {
    JobView view;
    std::function<void(ShellRunResult)> ended; ///< to be given the run's result when it ends
  };
  /// Enters a running command in the session's table; or why it cannot (too many running).
  std::variant<Adopted, std::string> adopt(Adoption adoption);

  std::optional<JobView> find(const std::string& sessionID, const std::string& id) const;
  /// The session's jobs, oldest first.
  std::vector<JobView> list(const std::string& sessionID) const;
  /// The ids of the session's jobs, for "no such job" messages.
  std::vector<std::string> ids(const std::string& sessionID) const;

  /// Where the session's last bash_output read of the job stopped (0 before any).
  std::uint64_t readOffset(const std::string& sessionID, const std::string& id) const;
  void setReadOffset(const std::string& sessionID, const std::string& id, std::uint64_t offset);

  /// Stops a running job (SIGTERM to its group, SIGKILL 3 s later); `done` gets its view once it
  /// has ended — at once when it had already — or nullopt when the session has no such job.
  void kill(const std::string& sessionID, const std::string& id, std::function<void(std::optional<JobView>)> done);

  /// Kills every running job of the session and forgets its jobs (their logs stay until the
  /// tool-output folder's clean-up).
  void endSession(const std::string& sessionID);

private:
  struct Job;
  struct Session;
  /// Gives the job its id and puts it in its session's table; or why not. Requires mutex_.
  std::optional<std::string> enterLocked(const std::shared_ptr<Job>& job);
  void ended(const std::shared_ptr<Job>& job, ShellRunResult result);
  JobView viewLocked(const Job& job) const;
  std::shared_ptr<Job> findLocked(const std::string& sessionID, const std::string& id) const;

  boost::asio::io_context& io_;
  core::ProcessRunner& runner_;
  std::shared_ptr<core::ClientChannel> client_;
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<Session>, std::less<>> sessions_;
  std::uint64_t nextId_ = 1;
};

} // namespace toold::builtins
