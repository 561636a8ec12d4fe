// The background job table on a real process runner: a job's life to its `shell/exited`, the
// 25 finished jobs a session keeps (older ones go with their logs), bash_kill's wait for the end,
// and a session's end killing what it still runs.
#include "builtins/shell/shell_jobs.h"
#include "builtins/shell/shell_environment.h"
#include "core/output/output_store.h"
#include "tests/support/temp_dir.h"

#include "tests/support/recording_channel.h"

#include <catch2/catch.hpp>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include <condition_variable>
#include <future>
#include <mutex>
#include <thread>

using namespace toold::builtins;
using namespace std::chrono_literals;
namespace fs = std::filesystem;
using toold::core::json;

namespace {

using toold::testing::RecordingChannel;

struct Fixture {
  toold::testing::TempDir dir{"shell_jobs_test"};
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

  JobView start(const std::string& session, const std::string& command,
               std::shared_ptr<toold::core::OutputStore> store = nullptr) {
    ShellRunOptions options;
    options.spec.argv = {"/bin/sh", "-c", command};
    options.spec.cwd = dir.path();
    options.spec.mergeOutput = true;
    options.logFolder = store ? store->folder() : dir.path() / "tool-output";
    options.store = std::move(store);
    options.memoryBytes = 0;
    auto started = jobs->start({session, command, "", std::move(options)});
    REQUIRE(std::holds_alternative<JobView>(started));
    return std::get<JobView>(started);
  }
};

} // namespace

TEST_CASE("shell jobs: a job runs to its end and the client is told, with the tail", "[shell_jobs]") {
  Fixture f;
  auto job = f.start("s1", "echo one; echo two; exit 3");
  CHECK(job.id == "shell-1");
  CHECK(job.state == JobState::Running);
  REQUIRE(job.logPath);
  CHECK(fs::exists(*job.logPath)); // created at once: bash_output reads it while the job runs
  auto notes = f.client->waitFor(1);
  CHECK(notes[0].first == "shell/exited");
  const json& params = notes[0].second;
  CHECK(params["shellId"] == "shell-1");
  CHECK(params["sessionID"] == "s1");
  CHECK(params["state"] == "exited");
  CHECK(params["exit"] == 3);
  CHECK(params["tail"] == "one\ntwo");
  CHECK(params["outputBytes"] == 8);
  auto ended = f.jobs->find("s1", "shell-1");
  REQUIRE(ended);
  CHECK(ended->state == JobState::Exited);
  CHECK_FALSE(f.jobs->find("s2", "shell-1")); // another session's job is not found
}

TEST_CASE("shell jobs: the starter's end runs before anyone can see the job ended", "[shell_jobs]") {
  // The starter's end writes the call's checkpoint: a bash_output that found the job ended while
  // it ran would answer "exited" before checkpoint/list shows the job's changes.
  Fixture f;
  std::promise<JobState> seenAtEnd;
  ShellRunOptions options;
  options.spec.argv = {"/bin/sh", "-c", "exit 0"};
  options.spec.cwd = f.dir.path();
  options.spec.mergeOutput = true;
  options.logFolder = f.dir.path() / "tool-output";
  options.memoryBytes = 0;
  auto jobs = f.jobs;
  auto started = f.jobs->start({"s1", "exit 0", "", std::move(options), [jobs, &seenAtEnd] {
                                  auto view = jobs->find("s1", "shell-1");
                                  seenAtEnd.set_value(view ? view->state : JobState::Failed);
                                }});
  REQUIRE(std::holds_alternative<JobView>(started));
  auto seen = seenAtEnd.get_future();
  REQUIRE(seen.wait_for(10s) == std::future_status::ready);
  CHECK(seen.get() == JobState::Running);
  f.client->waitFor(1);
  CHECK(f.jobs->find("s1", "shell-1")->state == JobState::Exited);
}

TEST_CASE("shell jobs: a session keeps its 25 newest finished jobs, the others go with their logs",
          "[shell_jobs]") {
  Fixture f;
  std::vector<JobView> started;
  for (int i = 0; i < 27; ++i) {
    started.push_back(f.start("s1", "echo " + std::to_string(i)));
    f.client->waitFor(started.size()); // one at a time, so that they end in order
  }
  auto list = f.jobs->list("s1");
  REQUIRE(list.size() == kFinishedJobsKept);
  CHECK(list.front().id == "shell-3");
  CHECK(list.back().id == "shell-27");
  CHECK_FALSE(fs::exists(*started[0].logPath));
  CHECK_FALSE(fs::exists(*started[1].logPath));
  CHECK(fs::exists(*started[2].logPath));
}

TEST_CASE("shell jobs: a log removed with its job is no longer counted in the folder's budget", "[shell_jobs]") {
  Fixture f;
  auto store = std::make_shared<toold::core::OutputStore>(f.dir.path() / "data");
  std::vector<JobView> started;
  for (int i = 0; i < 27; ++i) {
    started.push_back(f.start("s1", "echo job-" + std::to_string(100 + i), store));
    f.client->waitFor(started.size());
  }
  REQUIRE_FALSE(fs::exists(*started[0].logPath));
  std::uint64_t onDisk = 0;
  for (const auto& entry : fs::directory_iterator(store->folder())) onDisk += entry.file_size();
  CHECK(onDisk == 25 * std::string("job-100\n").size());
  CHECK(store->keptBytes() == onDisk);
}

TEST_CASE("shell jobs: kill waits for the end, a finished job is said so", "[shell_jobs]") {
  Fixture f;
  auto job = f.start("s1", "echo up; exec sleep 30");
  std::this_thread::sleep_for(100ms);
  std::promise<std::optional<JobView>> killed;
  f.jobs->kill("s1", job.id, [&](std::optional<JobView> view) { killed.set_value(std::move(view)); });
  auto future = killed.get_future();
  REQUIRE(future.wait_for(10s) == std::future_status::ready);
  auto view = future.get();
  REQUIRE(view);
  CHECK(view->state == JobState::Killed);
  CHECK(view->signal == SIGTERM);
  CHECK(view->tail == "up");
  CHECK(f.client->waitFor(1)[0].second["state"] == "killed");

  std::promise<std::optional<JobView>> again;
  f.jobs->kill("s1", job.id, [&](std::optional<JobView> ended) { again.set_value(std::move(ended)); });
  auto second = again.get_future().get();
  REQUIRE(second);
  CHECK(second->state == JobState::Killed);

  std::promise<std::optional<JobView>> unknown;
  f.jobs->kill("s1", "shell-99", [&](std::optional<JobView> none) { unknown.set_value(std::move(none)); });
  CHECK_FALSE(unknown.get_future().get());
}

TEST_CASE("shell jobs: ending a session kills its jobs and forgets them", "[shell_jobs]") {
  Fixture f;
  f.start("s1", "exec sleep 30");
  f.start("s1", "exec sleep 30");
  f.start("s2", "exec sleep 30");
  f.jobs->endSession("s1");
  auto notes = f.client->waitFor(2);
  for (const auto& [method, params] : notes) {
    CHECK(params["sessionID"] == "s1");
    CHECK(params["state"] == "killed");
  }
  CHECK(f.jobs->list("s1").empty());
  REQUIRE(f.jobs->list("s2").size() == 1);
  CHECK(f.jobs->list("s2")[0].state == JobState::Running);
}

TEST_CASE("shell jobs: a job that cannot start fails, and is told like any end", "[shell_jobs]") {
  Fixture f;
  ShellRunOptions options;
  options.spec.argv = {"/bin/sh", "-c", "true"};
  options.spec.cwd = f.dir.path() / "gone";
  options.logFolder = f.dir.path() / "tool-output";
  options.memoryBytes = 0;
  auto started = f.jobs->start({"s1", "true", "", std::move(options)});
  REQUIRE(std::holds_alternative<JobView>(started));
  auto notes = f.client->waitFor(1);
  CHECK(notes[0].second["state"] == "failed");
  CHECK(notes[0].second["error"] == "Working directory does not exist: " + (f.dir.path() / "gone").string());
}
