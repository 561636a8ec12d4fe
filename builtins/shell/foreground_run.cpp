#include "builtins/shell/foreground_run.h"

#include <boost/asio/steady_timer.hpp>
#include <spdlog/spdlog.h>

#include <mutex>

namespace toold::builtins {

namespace {

namespace asio = boost::asio;

/// One foreground command under a limit. The command's exit and the limit's timer race; `mutex`
/// and `phase` decide which wins, so exactly one of the two answers is given, and an exit after
/// the move ends the job instead.
struct Handover : std::enable_shared_from_this<Handover> {
  enum class Phase { Foreground, Background, Ended };

  Handover(asio::io_context& io, std::shared_ptr<ShellJobs> j, ForegroundRequest& request,
           std::function<void(ShellRunResult)> f, std::function<void(MovedToBackground)> m)
      : jobs(std::move(j)), sessionID(request.sessionID), command(request.command), description(request.description),
        workdir(request.run.spec.cwd.string()), holdCheckpoint(std::move(request.holdCheckpoint)), timer(io),
        finished(std::move(f)), moved(std::move(m)) {}

  void exited(ShellRunResult result) {
    std::unique_lock lock(mutex);
    if (phase == Phase::Background) {
      auto ended = jobEnded;
      lock.unlock();
      return ended(std::move(result));
    }
    phase = Phase::Ended;
    forward.reset();
    timer.cancel();
    auto answer = std::move(finished);
    moved = nullptr;
    lock.unlock();
    answer(std::move(result));
  }

  void limitReached() {
    std::unique_lock lock(mutex);
    if (phase != Phase::Foreground || !run) return;
    auto adopted = jobs->adopt(ShellJobs::Adoption{sessionID, command, description, workdir, run, stop, startedAt,
                                                   startedSteady, 0, holdCheckpoint ? holdCheckpoint() : nullptr});
    if (auto* refusal = std::get_if<std::string>(&adopted)) {
      spdlog::warn("bash: a command past the foreground limit stays in the foreground: {}", *refusal);
      return;
    }
    auto& entered = std::get<ShellJobs::Adopted>(adopted);
    phase = Phase::Background;
    forward.reset(); // the call is answered: its cancellation no longer reaches the job
    jobEnded = std::move(entered.ended);
    MovedToBackground answer;
    answer.soFar = run->handOver();
    // bash_output goes on past what the answer shows; the view now has the log's path.
    jobs->setReadOffset(sessionID, entered.view.id, answer.soFar.outputBytes);
    answer.job = jobs->find(sessionID, entered.view.id).value_or(entered.view);
    answer.elapsed =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - startedSteady);
    auto reply = std::move(moved);
    finished = nullptr;
    lock.unlock();
    reply(std::move(answer));
  }

  std::shared_ptr<ShellJobs> jobs;
  const std::string sessionID;
  const std::string command;
  const std::string description;
  const std::string workdir;
  std::function<std::function<void()>()> holdCheckpoint;
  const std::chrono::system_clock::time_point startedAt = std::chrono::system_clock::now();
  const std::chrono::steady_clock::time_point startedSteady = std::chrono::steady_clock::now();
  core::CancellationSource stop; ///< what the command runs with: the call's, then the job's

  std::mutex mutex;
  Phase phase = Phase::Foreground;
  core::CancellationRegistration forward; ///< the call's cancellation, passed on to `stop`
  asio::steady_timer timer;
  std::shared_ptr<ShellRun> run;
  std::function<void(ShellRunResult)> finished;
  std::function<void(MovedToBackground)> moved;
  std::function<void(ShellRunResult)> jobEnded;
};

} // namespace

bool movesToBackground(std::int64_t timeoutMs, std::optional<std::chrono::milliseconds> limit) {
  if (!limit || limit->count() <= 0) return false;
  return timeoutMs == 0 || timeoutMs > limit->count();
}

void runForeground(asio::io_context& io, core::ProcessRunner& runner, std::shared_ptr<ShellJobs> jobs,
                   ForegroundRequest request, core::CancellationToken cancellation,
                   std::function<void(ShellRunResult)> finished, std::function<void(MovedToBackground)> moved) {
  if (!movesToBackground(request.run.spec.timeout.count(), request.limit))
    return void(ShellRun::start(io, runner, std::move(request.run), std::move(cancellation), std::move(finished)));

  auto handover = std::make_shared<Handover>(io, std::move(jobs), request, std::move(finished), std::move(moved));
  {
    std::lock_guard lock(handover->mutex);
    handover->forward = cancellation.onCancel([stop = handover->stop, cancellation]() mutable {
      stop.cancel(cancellation.reason());
    });
  }
  // Not under the mutex: a command that cannot start is answered inside start().
  auto run = ShellRun::start(io, runner, std::move(request.run), handover->stop.token(),
                             [handover](ShellRunResult result) { handover->exited(std::move(result)); });
  std::lock_guard lock(handover->mutex);
  if (handover->phase != Handover::Phase::Foreground) return;
  handover->run = std::move(run);
  handover->timer.expires_after(*request.limit);
  handover->timer.async_wait([handover](const boost::system::error_code& error) {
    if (!error) handover->limitReached();
  });
}

} // namespace toold::builtins
