// A child's stdin: data given up front, and a ChildInput written while the child runs — from
// many threads, past a full pipe, to a child that stopped reading (no SIGPIPE in toold).
#include "core/process/process_runner.h"
#include "tests/unit/core/process/runner_test_support.h"

#include <catch2/catch.hpp>

#include <signal.h>

#include <string>
#include <thread>
#include <vector>

using toold::core::ExitStatus;
using toold::core::OutputStream;
using toold::core::ProcessOutcome;
using toold::core::ProcessRunner;
using namespace toold::core::testing;

TEST_CASE("stdin data reaches the child, which then sees its end", "[process]") {
  Loop loop;
  ProcessRunner runner(loop.io);

  auto small = start(runner, {.argv = {"cat"}, .stdinData = "hello\nworld"});
  REQUIRE(small->wait().status == ExitStatus::exited(0));
  CHECK(small->out == "hello\nworld");

  // More than a pipe holds: written as the child reads, while its output is read.
  std::string big;
  for (int i = 0; big.size() < (3u << 20); ++i) big += std::to_string(i) + '\n';
  auto large = start(runner, {.argv = {"cat"}, .stdinData = big});
  REQUIRE(large->wait().status == ExitStatus::exited(0));
  CHECK(large->out.size() == big.size());
  CHECK(large->out == big);

  auto empty = start(runner, {.argv = {"cat"}, .stdinData = ""});
  REQUIRE(empty->wait().status == ExitStatus::exited(0));
  CHECK(empty->out.empty());
}

TEST_CASE("a child started with input reads what is written, in order, until it is closed", "[process]") {
  Loop loop;
  ProcessRunner runner(loop.io);
  auto run = std::make_shared<Run>();
  auto input = runner.startWithInput(
      {.argv = {"cat"}, .stdinData = "first\n"}, {},
      [run](OutputStream stream, std::string_view bytes) { (stream == OutputStream::Stdout ? run->out : run->err).append(bytes); },
      [run](ProcessOutcome outcome) { run->done.set_value(std::move(outcome)); });
  input->write("second\n");
  // More than a pipe holds, queued while the child reads.
  std::string big;
  for (int i = 0; big.size() < (1u << 20); ++i) big += std::to_string(i) + '\n';
  input->write(big);
  input->write("last\n");
  CHECK(run->outcome.wait_for(200ms) == std::future_status::timeout); // stdin is still open
  input->close();
  input->write("dropped after close\n");
  REQUIRE(run->wait().status == ExitStatus::exited(0));
  CHECK(run->out == "first\nsecond\n" + big + "last\n");
  CHECK(input->pid() > 0);
}

TEST_CASE("a child that does not read its stdin does not raise SIGPIPE in toold", "[process]") {
  // Under the default disposition a SIGPIPE would end the test binary here.
  SignalDisposition sigpipe(SIGPIPE, SIG_DFL);
  Loop loop;
  ProcessRunner runner(loop.io);
  auto run = start(runner, {.argv = {"/bin/sh", "-c", "exit 3"}, .stdinData = std::string(4u << 20, 'x')});
  CHECK(run->wait().status == ExitStatus::exited(3));
  sigset_t pending;
  sigpending(&pending);
  CHECK_FALSE(sigismember(&pending, SIGPIPE));
}

TEST_CASE("writers on many threads, at once or queued, reach the child whole and in order", "[process]") {
  Loop loop;
  ProcessRunner runner(loop.io);
  auto run = std::make_shared<Run>();
  auto input = runner.startWithInput(
      {.argv = {"cat"}}, {},
      [run](OutputStream stream, std::string_view bytes) { (stream == OutputStream::Stdout ? run->out : run->err).append(bytes); },
      [run](ProcessOutcome outcome) { run->done.set_value(std::move(outcome)); });
  // An idle pipe is written from the writer's own thread; a full one queues for the runner.
  input->write("ready\n");
  for (int i = 0; i < 50 && input->pid() == 0; ++i) std::this_thread::sleep_for(10ms);
  std::this_thread::sleep_for(50ms);
  constexpr int kThreads = 4, kLines = 3000;
  std::vector<std::thread> writers;
  for (int t = 0; t < kThreads; ++t)
    writers.emplace_back([&input, t] {
      for (int i = 0; i < kLines; ++i) {
        std::string line = "t" + std::to_string(t) + " " + std::to_string(i);
        // Now and then a write larger than the pipe, so that writes queue behind it.
        if (i % 1000 == 999) line += " " + std::string(100'000, 'x');
        input->write(line + "\n");
      }
    });
  for (auto& writer : writers) writer.join();
  input->close();
  REQUIRE(run->wait().status == ExitStatus::exited(0));
  std::vector<int> next(kThreads, 0);
  std::size_t at = run->out.find('\n') + 1;
  CHECK(run->out.substr(0, at) == "ready\n");
  while (at < run->out.size()) {
    const std::size_t end = run->out.find('\n', at);
    REQUIRE(end != std::string::npos);
    const std::string line = run->out.substr(at, end - at);
    at = end + 1;
    REQUIRE(line.size() > 3);
    const int t = line[1] - '0';
    REQUIRE((t >= 0 && t < kThreads));
    const std::size_t space = line.find(' ', 3);
    const int i = std::stoi(line.substr(3, space == std::string::npos ? std::string::npos : space - 3));
    CHECK(i == next[t]);
    next[t] = i + 1;
    if (i % 1000 == 999) CHECK(line.size() == space + 1 + 100'000);
  }
  CHECK(next == std::vector<int>(kThreads, kLines));
}

TEST_CASE("a write to a child that closed its stdin does not raise SIGPIPE in toold", "[process]") {
  SignalDisposition sigpipe(SIGPIPE, SIG_DFL);
  Loop loop;
  ProcessRunner runner(loop.io);
  auto run = std::make_shared<Run>();
  auto input = runner.startWithInput(
      {.argv = {"/bin/sh", "-c", "read line; exec 0<&-; echo closed; sleep 0.5"}}, {},
      [run](OutputStream stream, std::string_view bytes) { (stream == OutputStream::Stdout ? run->out : run->err).append(bytes); },
      [run](ProcessOutcome outcome) { run->done.set_value(std::move(outcome)); });
  input->write("hello\n");
  std::this_thread::sleep_for(250ms); // the child has closed its end; the pipe is idle on toold's
  input->write("nobody reads this\n");
  input->write("nor this\n");
  REQUIRE(run->wait().status == ExitStatus::exited(0));
  CHECK(run->out == "closed\n");
  sigset_t pending;
  sigpending(&pending);
  CHECK_FALSE(sigismember(&pending, SIGPIPE));
}

TEST_CASE("without stdin data, stdin is /dev/null and ends at once", "[process]") {
  Loop loop;
  ProcessRunner runner(loop.io);
  auto where = start(runner, shell("readlink /proc/self/fd/0"));
  REQUIRE(where->wait().status == ExitStatus::exited(0));
  CHECK(where->out == "/dev/null\n");

  auto cat = start(runner, {.argv = {"cat"}});
  REQUIRE(cat->wait(5s).status == ExitStatus::exited(0));
  CHECK(cat->out.empty());
  CHECK(cat->elapsed() < 3s);
}
