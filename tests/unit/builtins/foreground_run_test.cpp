// A foreground command under a limit, on a real process runner: within the limit it answers as a
// foreground command; past it, it goes on as a background job with its output kept from the first
// byte; the call's cancellation reaches it only while it is in the foreground; and when its exit
// and the limit race, exactly one answer is given.
#include "builtins/shell/foreground_run.h"
#include "tests/support/temp_dir.h"

#include "tests/support/recording_channel.h"

#include <catch2/catch.hpp>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include <condition_variable>
#include <fstream>
#include <future>
#include <mutex>
#include <sstream>
#include <thread>

using namespace toold::builtins;
using namespace std::chrono_literals;
namespace fs = std::filesystem;
using toold::core::json;

namespace {

using toold::testing::RecordingChannel;

/// What came back from one runForeground: the one answer, once it came.
struct Answers {
  std::mutex mutex;
  std::condition_variable changed;
  int finishedCount = 0;
  int movedCount = 0;
  std::optional<ShellRunResult> finished;
  std::optional<MovedToBackground> moved;

  void waitForOne() {
    std::unique_lock lock(mutex);
    REQUIRE(changed.wait_for(lock, 10s, [&] { return finishedCount + movedCount > 0; }));
  }
};

struct Fixture {
  toold::testing::TempDir dir{"foreground_run_test"};
  boost::asio::io_context io;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work = boost::asio::make_work_guard(io);
  std::thread loop{[this] { io.run(); }};
  toold::core::ProcessRunner runner{io};
  std::shared_ptr<RecordingChannel> client = std::make_shared<RecordingChannel>();
  std::shared_ptr<ShellJobs> jobs = std::make_shared<ShellJobs>(io, runner, client);

  ~Fixture() {
    runner.killAll();
    work.reset();
    io.stop();
    loop.join();
  }

  std::shared_ptr<Answers> run(const std::string& command, std::optional<std::chrono::milliseconds> limit,
                               std::chrono::milliseconds timeout = 0ms, toold::core::CancellationToken cancel = {}) {
    ForegroundRequest request;
    request.sessionID = "s1";
    request.command = command;
    request.run.spec.argv = {"/bin/sh", "-c", command};
    request.run.spec.cwd = dir.path();
    request.run.spec.mergeOutput = true;
    request.run.spec.timeout = timeout;
    request.run.logFolder = dir.path() / "tool-output";
    request.limit = limit;
    auto answers = std::make_shared<Answers>();
    runForeground(
        io, runner, jobs, std::move(request), std::move(cancel),
        [answers](ShellRunResult result) {
          std::lock_guard lock(answers->mutex);
          ++answers->finishedCount;
          answers->finished = std::move(result);
          answers->changed.notify_all();
        },
        [answers](MovedToBackground moved) {
          std::lock_guard lock(answers->mutex);
          ++answers->movedCount;
          answers->moved = std::move(moved);
          answers->changed.notify_all();
        });
    return answers;
  }
};

std::string contents(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

} // namespace

TEST_CASE("foreground run: moved only when the command's own timeout would not stop it first", "[foreground_run]") {
  CHECK_FALSE(movesToBackground(0, std::nullopt));      // no limit
  CHECK_FALSE(movesToBackground(0, 0ms));               // a limit of 0 is none
  CHECK(movesToBackground(0, 45000ms));                 // no timeout: it may run past the limit
  CHECK(movesToBackground(120000, 45000ms));            // the default timeout is longer
  CHECK_FALSE(movesToBackground(45000, 45000ms));       // stopped by its timeout at the limit
  CHECK_FALSE(movesToBackground(5000, 45000ms));        // stopped well before
  CHECK(movesToBackground(45001, 45000ms));
}

TEST_CASE("foreground run: a command that ends within the limit answers in the foreground", "[foreground_run]") {
  Fixture f;
  auto answers = f.run("echo quick", 5000ms);
  answers->waitForOne();
  std::lock_guard lock(answers->mutex);
  CHECK(answers->finishedCount == 1);
  CHECK(answers->movedCount == 0);
  REQUIRE(answers->finished);
  CHECK(answers->finished->text.text == "quick\n");
  CHECK(f.jobs->list("s1").empty());
}

TEST_CASE("foreground run: past the limit the command goes on as a job, its output kept from the start",
          "[foreground_run]") {
  Fixture f;
  auto answers = f.run("echo before; sleep 0.6; echo after", 200ms);
  answers->waitForOne();
  MovedToBackground moved;
  {
    std::lock_guard lock(answers->mutex);
    REQUIRE(answers->movedCount == 1);
    CHECK(answers->finishedCount == 0);
    moved = *answers->moved;
  }
  CHECK(moved.job.id == "shell-1");
  CHECK(moved.job.state == JobState::Running);
  CHECK(moved.soFar.text.text == "before\n");
  CHECK(moved.soFar.outputBytes == 7);
  CHECK(moved.elapsed >= 200ms);
  REQUIRE(moved.job.logPath);
  CHECK(contents(*moved.job.logPath) == "before\n"); // readable while it runs
  CHECK(f.jobs->readOffset("s1", "shell-1") == 7);  // bash_output goes on past the answer's output

  auto notes = f.client->waitFor(1);
  CHECK(notes[0].first == "shell/exited");
  CHECK(notes[0].second["state"] == "exited");
  CHECK(notes[0].second["exit"] == 0);
  CHECK(notes[0].second["tail"] == "before\nafter");
  CHECK(contents(*moved.job.logPath) == "before\nafter\n");
  std::lock_guard lock(answers->mutex);
  CHECK(answers->finishedCount == 0); // the exit went to the job, not to the answered call
}

TEST_CASE("foreground run: the call's cancellation stops a foreground command, not the job it became",
          "[foreground_run]") {
  Fixture f;
  SECTION("in the foreground") {
    toold::core::CancellationSource call;
    auto answers = f.run("sleep 5", 2000ms, 0ms, call.token());
    std::this_thread::sleep_for(100ms);
    call.cancel("cancelled by the client");
    answers->waitForOne();
    std::lock_guard lock(answers->mutex);
    REQUIRE(answers->finishedCount == 1);
    CHECK(answers->finished->outcome.cancelled);
  }
  SECTION("after the move") {
    toold::core::CancellationSource call;
    auto answers = f.run("sleep 0.5; echo lived", 100ms, 0ms, call.token());
    answers->waitForOne();
    call.cancel("the call ended");
    auto notes = f.client->waitFor(1);
    CHECK(notes[0].second["state"] == "exited");
    CHECK(notes[0].second["tail"] == "lived");
  }
  SECTION("bash_kill stops the job") {
    auto answers = f.run("sleep 5", 100ms);
    answers->waitForOne();
    std::promise<std::optional<JobView>> killed;
    f.jobs->kill("s1", "shell-1", [&killed](std::optional<JobView> job) { killed.set_value(std::move(job)); });
    auto future = killed.get_future();
    REQUIRE(future.wait_for(10s) == std::future_status::ready);
    auto job = future.get();
    REQUIRE(job);
    CHECK(job->state == JobState::Killed);
  }
}

TEST_CASE("foreground run: an exit racing the limit gives exactly one answer", "[foreground_run]") {
  Fixture f;
  for (int i = 0; i < 20; ++i) {
    auto answers = f.run("sleep 0.05", 50ms);
    answers->waitForOne();
    std::this_thread::sleep_for(150ms); // a second answer would have come by now
    std::lock_guard lock(answers->mutex);
    CHECK(answers->finishedCount + answers->movedCount == 1);
  }
  // Every job that was moved ended as a job.
  for (const auto& job : f.jobs->list("s1")) CHECK(job.state == JobState::Exited);
}
