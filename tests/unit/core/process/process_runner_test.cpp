// The process runner against the classic traps: exit codes against signals, the two output
// streams, large output, timeouts and cancellation reaching the whole group, grandchildren that
// hold the pipes, spawn failures, an ignored SIGCHLD, a waitpid(-1) elsewhere, and killing
// everything at exit.
#include "core/process/process_runner.h"
#include "tests/unit/core/process/runner_test_support.h"

#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <future>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

using toold::core::CancellationSource;
using toold::core::CancellationToken;
using toold::core::CapturedRun;
using toold::core::ExitStatus;
using toold::core::OutputStream;
using toold::core::ProcessOutcome;
using toold::core::ProcessRunner;
using toold::core::ProcessSpec;
using namespace toold::core::testing;

namespace {

/// A path of its own in the temporary directory, removed at the end of the test.
class TempPath {
public:
  explicit TempPath(const std::string& name)
      : path_(std::filesystem::temp_directory_path() /
              ("process_runner_test_" + std::to_string(::getpid()) + "_" + name)) {}
  ~TempPath() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempPath(const TempPath&) = delete;
  TempPath& operator=(const TempPath&) = delete;

  std::string str() const { return path_.string(); }
  std::string read() const {
    std::ifstream in(path_, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }

private:
  std::filesystem::path path_;
};

/// Polls `condition` until it holds or `limit` passes.
template <typename Condition>
bool eventually(Condition condition, Clock::duration limit = 5s) {
  const auto deadline = Clock::now() + limit;
  while (!condition()) {
    if (Clock::now() >= deadline) return false;
    std::this_thread::sleep_for(10ms);
  }
  return true;
}

/// The pid a script wrote to `file`, once it has written it whole (a number and a newline).
pid_t pidFrom(const TempPath& file) {
  std::string text;
  REQUIRE(eventually([&] {
    text = file.read();
    return !text.empty() && text.back() == '\n';
  }));
  pid_t pid = 0;
  REQUIRE(std::from_chars(text.data(), text.data() + text.size(), pid).ec == std::errc());
  REQUIRE(pid > 0);
  return pid;
}

/// The state letter in /proc/PID/stat; nothing once the process is gone.
std::optional<char> processState(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  const std::string stat{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const auto close = stat.rfind(')');
  if (close == std::string::npos || close + 2 >= stat.size()) return std::nullopt;
  return stat[close + 2];
}

/// Not running any more: gone, or a zombie waiting for a parent (which may not reap at all if
/// that parent is a container's PID 1 that is no init).
bool processGone(pid_t pid) {
  if (::kill(pid, 0) != 0 && errno == ESRCH) return true;
  const auto state = processState(pid);
  return !state || *state == 'Z' || *state == 'X';
}

/// Kills a descendant the runner may have left running, whatever the test's end (unless it is
/// gone already: its pid may then be another process's).
class KillAtEnd {
public:
  explicit KillAtEnd(pid_t pid) : pid_(pid) {}
  ~KillAtEnd() {
    if (!processGone(pid_)) ::kill(pid_, SIGKILL);
  }
  KillAtEnd(const KillAtEnd&) = delete;
  KillAtEnd& operator=(const KillAtEnd&) = delete;

private:
  pid_t pid_;
};


} // namespace

TEST_CASE("the runner tells an exit code from a death by signal", "[process]") {
  Loop loop;
  ProcessRunner runner(loop.io);

  const auto exited = start(runner, shell("exit 9"))->wait();
  REQUIRE(exited.status);
  CHECK(exited.status->code == 9);
  CHECK_FALSE(exited.status->signal);
  CHECK(exited.status->describe() == "exit code 9");
  CHECK(exited.describe() == "exit code 9");
  CHECK(exited.spawnError.empty());
  CHECK_FALSE(exited.timedOut);
  CHECK_FALSE(exited.cancelled);

  const auto killed = start(runner, shell("kill -9 $$"))->wait();
  REQUIRE(killed.status);
  CHECK(killed.status->signal == SIGKILL);
  CHECK_FALSE(killed.status->code);
  CHECK(killed.status->describe() == "killed by signal 9 (SIGKILL)");

  const auto succeeded = start(runner, shell("true"))->wait();
  REQUIRE(succeeded.status);
  CHECK(succeeded.status->succeeded());
  CHECK(runner.liveCount() == 0);
}


TEST_CASE("stdout and stderr are kept apart, or merged in arrival order", "[process]") {
  Loop loop;
  ProcessRunner runner(loop.io);
  const std::string script = "echo one; echo two >&2; echo three; echo four >&2";

  auto apart = start(runner, shell(script));
  REQUIRE(apart->wait().status == ExitStatus::exited(0));
  CHECK(apart->out == "one\nthree\n");
  CHECK(apart->err == "two\nfour\n");

  ProcessSpec merged = shell(script);
  merged.mergeOutput = true;
  auto together = start(runner, merged);
  REQUIRE(together->wait().status == ExitStatus::exited(0));
  CHECK(together->out == "one\ntwo\nthree\nfour\n");
  CHECK(together->err.empty());
}

TEST_CASE("large output arrives complete and in order", "[process]") {
  Loop loop;
  ProcessRunner runner(loop.io);
  constexpr std::size_t size = 8u << 20;
  std::string expected;
  for (int i = 1; expected.size() < size; ++i) expected += std::to_string(i) + '\n';
  expected.resize(size);

  auto run = start(runner, shell("seq 1 3000000 | head -c 8388608; echo done >&2"));
  REQUIRE(run->wait(30s).status == ExitStatus::exited(0));
  CHECK(run->out.size() == size);
  CHECK(run->out == expected);
  CHECK(run->err == "done\n");
}

TEST_CASE("a timeout terminates the whole process group", "[process]") {
  Loop loop;
  ProcessRunner runner(loop.io);
  TempPath pidFile("timeout_pid");

  ProcessSpec spec = shell("sleep 30 & echo $! > " + pidFile.str() + "; wait");
  spec.timeout = 300ms;
  auto run = start(runner, spec);
  const pid_t grandchild = pidFrom(pidFile);
  const KillAtEnd cleanup(grandchild);
  const auto outcome = run->wait();
  CHECK(outcome.timedOut);
  CHECK_FALSE(outcome.cancelled);
  REQUIRE(outcome.status);
  CHECK(outcome.status->signal == SIGTERM);
  CHECK(outcome.describe() == "timed out; killed by signal 15 (SIGTERM)");
  CHECK(run->elapsed() >= 300ms);
  CHECK(run->elapsed() < 2500ms); // well before the 3 s grace: SIGTERM did it
  CHECK(eventually([&] { return processGone(grandchild); }));
}

TEST_CASE("SIGTERM reaches the whole group, not the child alone", "[process]") {
  Loop loop;
  ProcessRunner runner(loop.io);
  // The child ignores SIGTERM and waits for a background subshell that does not: only a SIGTERM
  // sent to the group ends the subshell, and with it the wait, long before the grace runs out.
  ProcessSpec spec = shell("(sleep 30; exit 0) & trap '' TERM; wait $!");
  spec.timeout = 300ms;
  spec.killGrace = 5s;
  auto run = start(runner, spec);
  const auto outcome = run->wait();
  CHECK(outcome.timedOut);
  CHECK(outcome.status == ExitStatus::exited(128 + SIGTERM)); // `wait` reports the subshell's death
  CHECK(run->elapsed() < 4s);
}

TEST_CASE("a child that ignores SIGTERM is killed when the grace period ends", "[process]") {
  Loop loop;
  ProcessRunner runner(loop.io);
  ProcessSpec spec = shell("trap '' TERM; while :; do sleep 0.05; done");
  spec.timeout = 200ms;
  spec.killGrace = 400ms;
  auto run = start(runner, spec);
  const auto outcome = run->wait();
  CHECK(outcome.timedOut);
  REQUIRE(outcome.status);
  CHECK(outcome.status->signal == SIGKILL);
  CHECK(run->elapsed() >= 600ms);
  CHECK(run->elapsed() < 5s);
}

TEST_CASE("cancellation terminates the whole process group", "[process]") {
  Loop loop;
  ProcessRunner runner(loop.io);
  TempPath pidFile("cancel_pid");
  CancellationSource source;

  auto run = start(runner, shell("sleep 30 & echo $! > " + pidFile.str() + "; wait"), source.token());
  const pid_t grandchild = pidFrom(pidFile);
  const KillAtEnd cleanup(grandchild);
  CHECK(run->outcome.wait_for(100ms) == std::future_status::timeout);
  source.cancel("cancelled by the test");
  const auto outcome = run->wait();
  CHECK(outcome.cancelled);
  CHECK_FALSE(outcome.timedOut);
  REQUIRE(outcome.status);
  CHECK(outcome.status->signal == SIGTERM);
  CHECK(eventually([&] { return processGone(grandchild); }));
}

TEST_CASE("a child cancelled before it starts is never run", "[process]") {
  Loop loop;
  ProcessRunner runner(loop.io);
  TempPath marker("never_created");
  CancellationSource source;
  source.cancel();
  const auto outcome = start(runner, shell("touch " + marker.str()), source.token())->wait();
  CHECK(outcome.cancelled);
  CHECK_FALSE(outcome.status);
  CHECK(outcome.spawnError.empty());
  CHECK(outcome.describe() == "cancelled before it started");
  CHECK_FALSE(std::filesystem::exists(marker.str()));
}

TEST_CASE("a grandchild holding stdout does not hold completion", "[process]") {
  Loop loop;
  ProcessRunner runner(loop.io);
  TempPath pidFile("holder_pid");

  SECTION("in the child's group: killed when the child exits") {
    auto run = start(runner, shell("sleep 30 & echo $! > " + pidFile.str() + "; echo done"));
    const pid_t grandchild = pidFrom(pidFile);
    const KillAtEnd cleanup(grandchild);
    REQUIRE(run->wait().status == ExitStatus::exited(0));
    CHECK(run->out == "done\n");
    CHECK(run->elapsed() < 1s); // a shell tool's call returns within a second
    CHECK(eventually([&] { return processGone(grandchild); }));
  }
  SECTION("escaped with setsid: the drain is bounded, and the escapee lives on") {
    // The child waits until the escapee has its own session: exiting earlier, the group kill
    // would still reach it.
    const std::string file = pidFile.str();
    ProcessSpec spec = shell("setsid sh -c 'echo $$ > " + file + "; exec sleep 30' & while [ ! -s " + file +
                             " ]; do sleep 0.01; done; echo done");
    spec.drainAfterExit = 250ms;
    auto run = start(runner, spec);
    const pid_t escapee = pidFrom(pidFile);
    const KillAtEnd cleanup(escapee);
    REQUIRE(run->wait().status == ExitStatus::exited(0));
    CHECK(run->out == "done\n");
    CHECK(run->elapsed() >= 250ms);
    CHECK(run->elapsed() < 1s);
    CHECK_FALSE(processGone(escapee));
  }
}

TEST_CASE("a program that cannot start is an outcome with a clear message", "[process]") {
  Loop loop;
  ProcessRunner runner(loop.io);
  TempPath directory("spawn_dir");
  std::filesystem::create_directory(directory.str());

  const auto missing = start(runner, {.argv = {"toold-no-such-program-anywhere", "x"}})->wait();
  CHECK(missing.spawnError == "cannot run \"toold-no-such-program-anywhere\": No such file or directory");
  CHECK_FALSE(missing.status);
  CHECK(missing.describe() == missing.spawnError);

  const std::string script = directory.str() + "/not_executable";
  std::ofstream(script) << "#!/bin/sh\necho ran\n";
  ::chmod(script.c_str(), 0644);
  const auto denied = start(runner, {.argv = {script}})->wait();
  CHECK(denied.spawnError == "cannot run \"" + script + "\": Permission denied");

  const auto badCwd = start(runner, {.argv = {"pwd"}, .cwd = directory.str() + "/missing"})->wait();
  CHECK(badCwd.spawnError ==
        "cannot run \"pwd\": working directory \"" + directory.str() + "/missing\": No such file or directory");

  const auto empty = start(runner, {})->wait();
  CHECK_FALSE(empty.spawnError.empty());
  CHECK(runner.liveCount() == 0);
}

TEST_CASE("the working directory and the environment are the spec's", "[process]") {
  Loop loop;
  ProcessRunner runner(loop.io);
  TempPath directory("cwd");
  std::filesystem::create_directory(directory.str());
  ::setenv("TOOLD_PROCESS_TEST_REMOVED", "present", 1);

  ProcessSpec spec = shell("pwd; echo \"$TOOLD_PROCESS_TEST_SET;${TOOLD_PROCESS_TEST_REMOVED-unset};$HOME\"");
  spec.cwd = directory.str();
  spec.extraEnv = {"TOOLD_PROCESS_TEST_SET=a=b", "TOOLD_PROCESS_TEST_REMOVED"};
  auto run = start(runner, spec);
  REQUIRE(run->wait().status == ExitStatus::exited(0));
  const char* home = ::getenv("HOME");
  CHECK(run->out == std::filesystem::canonical(directory.str()).string() + "\na=b;unset;" +
                        (home != nullptr ? home : "") + "\n");
  ::unsetenv("TOOLD_PROCESS_TEST_REMOVED");
}

TEST_CASE("an ignored SIGCHLD does not lose the exit status", "[process]") {
  Loop loop;
  ProcessRunner runner(loop.io);
  SignalDisposition ignored(SIGCHLD, SIG_IGN);
  const auto outcome = start(runner, shell("exit 5"))->wait();
  REQUIRE(outcome.status);
  CHECK(outcome.status->code == 5);
  // The runner put the default back before spawning; the disposition is restored at the end.
  struct sigaction now {};
  ::sigaction(SIGCHLD, nullptr, &now);
  CHECK(now.sa_handler == SIG_DFL);
  CHECK_FALSE(toold::core::resetChildSignalDisposition());
}

TEST_CASE("a waitpid(-1) elsewhere that takes the status does not hang the run", "[process]") {
  Loop loop;
  ProcessRunner runner(loop.io);
  // Another part of the process (a library, a careless signal handler) reaps any child. The
  // runner learns of the exit through its pidfd all the same, and says the status was taken. The
  // loop is held until the other wait has taken it, so that it always wins the race.
  auto run = start(runner, shell("sleep 0.2; exit 7"));
  std::promise<void> stolen;
  boost::asio::post(loop.io, [taken = stolen.get_future()]() mutable { taken.wait_for(5s); });
  std::thread stealer([&stolen] {
    const auto deadline = Clock::now() + 5s;
    int status = 0;
    while (::waitpid(-1, &status, 0) < 0 && Clock::now() < deadline)
      std::this_thread::sleep_for(5ms); // not spawned yet (ECHILD), or interrupted
    stolen.set_value();
  });
  const auto outcome = run->wait(10s);
  stealer.join();
  CHECK_FALSE(outcome.status);
  CHECK(outcome.describe() == "exit status unknown (reaped outside toold)");
}

TEST_CASE("killAll kills and reaps every child, and their outcomes follow", "[process]") {
  Loop loop;
  ProcessRunner runner(loop.io);
  auto first = start(runner, {.argv = {"sleep", "30"}});
  auto second = start(runner, shell("sleep 30; exit 0"));
  REQUIRE(eventually([&] { return runner.liveCount() == 2; }));
  runner.killAll();
  CHECK(runner.liveCount() == 0);
  for (auto* run : {&first, &second}) {
    const auto outcome = (*run)->wait(5s);
    REQUIRE(outcome.status);
    CHECK(outcome.status->signal == SIGKILL);
    CHECK_FALSE(outcome.cancelled);
  }
  // The runner still starts children afterwards.
  CHECK(start(runner, shell("exit 4"))->wait().status == ExitStatus::exited(4));
}

TEST_CASE("destroying the runner kills its children", "[process]") {
  Loop loop;
  TempPath pidFile("destroyed_pid");
  std::shared_ptr<Run> run;
  pid_t child = 0;
  {
    ProcessRunner runner(loop.io);
    run = start(runner, shell("echo $$ > " + pidFile.str() + "; exec sleep 30"));
    child = pidFrom(pidFile);
  }
  CHECK(processGone(child));
  const auto outcome = run->wait(5s);
  REQUIRE(outcome.status);
  CHECK(outcome.status->signal == SIGKILL);
}

TEST_CASE("runCaptured caps stdout and keeps the tail of stderr", "[process]") {
  Loop loop;
  ProcessRunner runner(loop.io);
  auto captured = std::make_shared<std::promise<CapturedRun>>();
  runCaptured(runner, shell("head -c 100000 /dev/zero | tr '\\0' a; printf 'xxxxxxxxxx0123456789' >&2; exit 2"), {},
              100, 10, [captured](CapturedRun run) { captured->set_value(std::move(run)); });
  auto future = captured->get_future();
  REQUIRE(future.wait_for(10s) == std::future_status::ready);
  const CapturedRun run = future.get();
  CHECK(run.outcome.status == ExitStatus::exited(2));
  CHECK(run.stdoutData == std::string(100, 'a'));
  CHECK(run.stdoutTruncated);
  CHECK(run.stderrTail == "0123456789");

  auto small = std::make_shared<std::promise<CapturedRun>>();
  runCaptured(runner, shell("echo hi; echo oops >&2"), {}, 100, 10,
              [small](CapturedRun result) { small->set_value(std::move(result)); });
  auto smallFuture = small->get_future();
  REQUIRE(smallFuture.wait_for(10s) == std::future_status::ready);
  const CapturedRun smallRun = smallFuture.get();
  CHECK(smallRun.stdoutData == "hi\n");
  CHECK_FALSE(smallRun.stdoutTruncated);
  CHECK(smallRun.stderrTail == "oops\n");
}
