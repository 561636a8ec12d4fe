#include "builtins/shell/shell_jobs.h"

#include "core/base/cancellation.h"
#include "core/output/output_store.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <deque>

namespace toold::builtins {

namespace {

using SystemClock = std::chrono::system_clock;

constexpr std::size_t kTailLines = 20;
constexpr std::size_t kTailBytes = 4 * 1024;

/// The last lines of `text`: at most kTailLines, and at most kTailBytes (a last line longer than
/// that keeps its end, from a character boundary).
std::string tailOf(std::string_view text) {
  if (text.ends_with('\n')) text.remove_suffix(1);
  const std::size_t end = text.size();
  std::size_t start = end;
  for (std::size_t lines = 0; lines < kTailLines && start > 0;) {
    // Before `start` (once it moved) is the '\n' that ended the previous line.
    const std::size_t searchEnd = start == end ? end : start - 1;
    const auto newline = searchEnd == 0 ? std::string_view::npos : text.rfind('\n', searchEnd - 1);
    const std::size_t lineStart = newline == std::string_view::npos ? 0 : newline + 1;
    if (end - lineStart > kTailBytes) {
      if (lines == 0) {
        start = end - kTailBytes;
        while (start < end && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) ++start;
      }
      break;
    }
    start = lineStart;
    ++lines;
  }
  return std::string(text.substr(start));
}

} // namespace

std::string_view jobStateName(JobState state) {
  switch (state) {
  case JobState::Running: return "running";
  case JobState::Exited: return "exited";
  case JobState::Killed: return "killed";
  case JobState::TimedOut: return "timed out";
  case JobState::Failed: return "failed";
  }
  return "unknown";
}

nlohmann::json JobView::toJson() const {
  nlohmann::json json{{"shellId", id},
                      {"sessionID", sessionID},
                      {"command", command},
                      {"state", jobStateName(state)},
                      {"exit", exitCode ? nlohmann::json(*exitCode) : nlohmann::json()},
                      {"outputBytes", outputBytes},
                      {"runtimeMs", runtime.count()},
                      {"logPath", logPath ? nlohmann::json(logPath->string()) : nlohmann::json()}};
  if (!description.empty()) json["description"] = description;
  if (signal) json["signal"] = *signal;
  if (!error.empty()) json["error"] = error;
  if (state != JobState::Running) json["tail"] = tail;
  return json;
}

struct ShellJobs::Job {
  std::string id;
  std::string sessionID;
  std::string command;
  std::string description;
  std::string workdir;
  core::CancellationSource stop;
  std::shared_ptr<ShellRun> run;
  JobState state = JobState::Running;
  bool killRequested = false;
  std::optional<core::ExitStatus> status;
  std::string error;
  std::optional<std::filesystem::path> logPath;
  std::shared_ptr<core::OutputStore> logStore; ///< told when the log is removed with the job
  std::uint64_t outputBytes = 0;
  SystemClock::time_point startedAt = SystemClock::now();
  std::chrono::steady_clock::time_point startedSteady = std::chrono::steady_clock::now();
  std::chrono::milliseconds runtime{0};
  std::string tail;
  std::uint64_t readOffset = 0;
  std::vector<std::function<void(std::optional<JobView>)>> waiters;
  std::function<void()> onEnd; ///< the starter's, run once when the job has ended
};

struct ShellJobs::Session {
  std::deque<std::shared_ptr<Job>> jobs; ///< oldest first
};

ShellJobs::ShellJobs(boost::asio::io_context& io, core::ProcessRunner& runner,
                     std::shared_ptr<core::ClientChannel> client)
    : io_(io), runner_(runner), client_(std::move(client)) {}

JobView ShellJobs::viewLocked(const Job& job) const {
  JobView view;
  view.id = job.id;
  view.sessionID = job.sessionID;
  view.command = job.command;
  view.description = job.description;
  view.workdir = job.workdir;
  view.state = job.state;
  if (job.status) {
    view.exitCode = job.status->code;
    view.signal = job.status->signal;
  }
  view.error = job.error;
  view.startedAt = job.startedAt;
  view.tail = job.tail;
  if (job.state == JobState::Running) {
    view.logPath = job.run ? job.run->logPath() : std::nullopt;
    view.outputBytes = job.run ? job.run->outputBytes() : 0;
    if (job.run) view.orderedLogBytes = job.run->orderedLogBytes();
    view.runtime = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                         job.startedSteady);
  } else {
    view.logPath = job.logPath;
    view.outputBytes = job.outputBytes;
    view.runtime = job.runtime;
  }
  return view;
}

std::optional<std::string> ShellJobs::enterLocked(const std::shared_ptr<Job>& job) {
  auto& session = sessions_[job->sessionID];
  if (!session) session = std::make_shared<Session>();
  const auto running = std::count_if(session->jobs.begin(), session->jobs.end(),
                                     [](const auto& other) { return other->state == JobState::Running; });
  if (static_cast<std::size_t>(running) >= kRunningJobsPerSession)
    return "This session already runs " + std::to_string(running) +
           " background jobs; stop one with bash_kill (see bash_jobs) before starting another.";
  job->id = "shell-" + std::to_string(nextId_++);
  session->jobs.push_back(job);
  return std::nullopt;
}

std::variant<JobView, std::string> ShellJobs::start(Request request) {
  auto job = std::make_shared<Job>();
  job->sessionID = request.sessionID;
  job->command = request.command;
  job->description = request.description;
  job->workdir = request.run.spec.cwd.string();
  job->onEnd = std::move(request.onEnd);
  {
    std::lock_guard lock(mutex_);
    if (auto refusal = enterLocked(job)) return std::move(*refusal);
  }
  // Started outside the lock: a job that cannot start ends at once, and ended() takes the lock.
  auto run = ShellRun::start(io_, runner_, std::move(request.run), job->stop.token(),
                             [weak = weak_from_this(), job](ShellRunResult result) {
                               if (auto self = weak.lock()) self->ended(job, std::move(result));
                             });
  std::lock_guard lock(mutex_);
  if (job->state == JobState::Running) job->run = std::move(run);
  return viewLocked(*job);
}

std::variant<ShellJobs::Adopted, std::string> ShellJobs::adopt(Adoption adoption) {
  auto job = std::make_shared<Job>();
  job->sessionID = std::move(adoption.sessionID);
  job->command = std::move(adoption.command);
  job->description = std::move(adoption.description);
  job->workdir = std::move(adoption.workdir);
  job->stop = std::move(adoption.stop);
  job->run = std::move(adoption.run);
  job->startedAt = adoption.startedAt;
  job->startedSteady = adoption.startedSteady;
  job->readOffset = adoption.readOffset;
  job->onEnd = std::move(adoption.onEnd);
  std::lock_guard lock(mutex_);
  if (auto refusal = enterLocked(job)) return std::move(*refusal);
  return Adopted{viewLocked(*job), [weak = weak_from_this(), job](ShellRunResult result) {
                   if (auto self = weak.lock()) self->ended(job, std::move(result));
                 }};
}

void ShellJobs::ended(const std::shared_ptr<Job>& job, ShellRunResult result) {
  // The starter's end (the call's checkpoint written) before the job is seen as ended: a
  // bash_output that finds it ended — having waited for it, or asking just then — finds the
  // checkpoint written too. Run after the state was set, a bash_output in between answered
  // "exited" while `checkpoint/list` did not show the job's changes yet.
  std::function<void()> onEnd;
  {
    std::lock_guard lock(mutex_);
    onEnd = std::move(job->onEnd);
  }
  if (onEnd) onEnd();
  JobView view;
  std::vector<std::function<void(std::optional<JobView>)>> waiters;
  {
    std::lock_guard lock(mutex_);
    const auto& outcome = result.outcome;
    job->status = outcome.status;
    if (!outcome.spawnError.empty()) {
      job->state = JobState::Failed;
      job->error = outcome.spawnError;
    } else if (outcome.timedOut) {
      job->state = JobState::TimedOut;
    } else if (job->killRequested || outcome.cancelled || (outcome.status && outcome.status->signal)) {
      job->state = JobState::Killed;
    } else {
      job->state = JobState::Exited;
    }
    job->logPath = result.logPath;
    job->logStore = result.logStore;
    job->outputBytes = result.outputBytes;
    job->runtime = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                        job->startedSteady);
    job->tail = tailOf(result.text.text);
    job->run.reset();
    waiters = std::move(job->waiters);
    view = viewLocked(*job);

    // Keep the newest finished jobs of the session; older ones go with their logs.
    if (auto it = sessions_.find(job->sessionID); it != sessions_.end()) {
      auto& jobs = it->second->jobs;
      std::size_t finished = static_cast<std::size_t>(
          std::count_if(jobs.begin(), jobs.end(), [](const auto& j) { return j->state != JobState::Running; }));
      for (auto j = jobs.begin(); j != jobs.end() && finished > kFinishedJobsKept;) {
        if ((*j)->state == JobState::Running) {
          ++j;
          continue;
        }
        if ((*j)->logPath) {
          std::error_code ec;
          std::filesystem::remove(*(*j)->logPath, ec);
          // The folder's budget counts the file until told: else its bytes stay counted, and
          // younger outputs are evicted for them, until the hourly recount.
          if ((*j)->logStore) (*j)->logStore->forget(*(*j)->logPath);
        }
        j = jobs.erase(j);
        --finished;
      }
    }
  }
  spdlog::info("background job {} of session {}: {}", view.id, view.sessionID, jobStateName(view.state));
  for (auto& waiter : waiters) waiter(view);
  if (client_) client_->notify("shell/exited", view.toJson());
}

std::shared_ptr<ShellJobs::Job> ShellJobs::findLocked(const std::string& sessionID, const std::string& id) const {
  auto it = sessions_.find(sessionID);
  if (it == sessions_.end()) return nullptr;
  for (const auto& job : it->second->jobs)
    if (job->id == id) return job;
  return nullptr;
}

std::optional<JobView> ShellJobs::find(const std::string& sessionID, const std::string& id) const {
  std::lock_guard lock(mutex_);
  auto job = findLocked(sessionID, id);
  if (!job) return std::nullopt;
  return viewLocked(*job);
}

std::uint64_t ShellJobs::readOffset(const std::string& sessionID, const std::string& id) const {
  std::lock_guard lock(mutex_);
  auto job = findLocked(sessionID, id);
  return job ? job->readOffset : 0;
}

void ShellJobs::setReadOffset(const std::string& sessionID, const std::string& id, std::uint64_t offset) {
  std::lock_guard lock(mutex_);
  if (auto job = findLocked(sessionID, id)) job->readOffset = offset;
}

std::vector<JobView> ShellJobs::list(const std::string& sessionID) const {
  std::lock_guard lock(mutex_);
  std::vector<JobView> views;
  if (auto it = sessions_.find(sessionID); it != sessions_.end())
    for (const auto& job : it->second->jobs) views.push_back(viewLocked(*job));
  return views;
}

std::vector<std::string> ShellJobs::ids(const std::string& sessionID) const {
  std::vector<std::string> out;
  for (const auto& view : list(sessionID)) out.push_back(view.id);
  return out;
}

void ShellJobs::kill(const std::string& sessionID, const std::string& id,
                     std::function<void(std::optional<JobView>)> done) {
  std::shared_ptr<Job> target;
  std::optional<JobView> alreadyEnded;
  {
    std::lock_guard lock(mutex_);
    target = findLocked(sessionID, id);
    if (target && target->state != JobState::Running) alreadyEnded = viewLocked(*target);
    if (target && !alreadyEnded) {
      target->killRequested = true;
      target->waiters.push_back(std::move(done));
    }
  }
  if (!target) return done(std::nullopt);
  if (alreadyEnded) return done(std::move(alreadyEnded));
  target->stop.cancel("killed by bash_kill");
}

void ShellJobs::endSession(const std::string& sessionID) {
  std::vector<std::shared_ptr<Job>> running;
  {
    std::lock_guard lock(mutex_);
    auto it = sessions_.find(sessionID);
    if (it == sessions_.end()) return;
    for (const auto& job : it->second->jobs)
      if (job->state == JobState::Running) {
        job->killRequested = true;
        running.push_back(job);
      }
    sessions_.erase(it);
  }
  if (!running.empty()) spdlog::info("session {} ended: killing {} background job(s)", sessionID, running.size());
  for (const auto& job : running) job->stop.cancel("the session ended");
}

} // namespace toold::builtins
