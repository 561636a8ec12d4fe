// Starting children: exec errors, exit codes against signals, redirections, deadlines, terminate.
#include "core/process/child_process.h"

#include <catch2/catch.hpp>

#include <fcntl.h>

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

using toold::client::ChildProcess;
using toold::client::Clock;
using toold::client::ExitStatus;
using namespace std::chrono_literals;

namespace {

ChildProcess::Options shell(const std::string& script) { return {.argv = {"sh", "-c", script}}; }

/// Everything the child writes to stdout until it closes it.
std::string readAll(ChildProcess& child, Clock::duration timeout = 5s) {
  const auto deadline = Clock::now() + timeout;
  std::string out;
  std::array<char, 4096> buffer{};
  while (const auto n = child.readSome(buffer, deadline)) {
    if (*n == 0) return out;
    out.append(buffer.data(), *n);
  }
  FAIL("the child's stdout did not close in time; so far: " << out);
  return out;
}

/// A file of its own in the temporary directory, removed at the end of the test.
class TempFile {
public:
  explicit TempFile(const std::string& name)
      : path_(std::filesystem::temp_directory_path() /
              ("child_process_test_" + std::to_string(::getpid()) + "_" + name)) {}
  ~TempFile() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  std::string path() const { return path_.string(); }
  std::string read() const {
    std::ifstream in(path_, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
  void write(const std::string& content) const { std::ofstream(path_, std::ios::binary) << content; }

private:
  std::filesystem::path path_;
};

} // namespace

TEST_CASE("a program that cannot be executed throws with the exec's errno", "[child_process]") {
  try {
    ChildProcess child({.argv = {"toold-no-such-program-anywhere"}});
    FAIL("started a program that does not exist");
  } catch (const std::system_error& e) {
    CHECK(e.code().value() == ENOENT);
    CHECK_THAT(std::string(e.what()), Catch::Contains("toold-no-such-program-anywhere") &&
                             Catch::Contains(std::generic_category().message(ENOENT)));
  }
  TempFile script("not_executable");
  script.write("#!/bin/sh\n");
  try {
    ChildProcess child({.argv = {script.path()}});
    FAIL("started a file that is not executable");
  } catch (const std::system_error& e) {
    CHECK(e.code().value() == EACCES);
  }
}

TEST_CASE("an exit code and a death by signal are told apart", "[child_process]") {
  ChildProcess exits(shell("exit 9"));
  const auto exited = exits.waitExit(Clock::now() + 5s);
  REQUIRE(exited);
  CHECK_FALSE(exited->signaled);
  CHECK(exited->value == 9);
  CHECK(exited->shellStatus() == 9);
  CHECK(exited->describe() == "exit status 9");

  ChildProcess dies(shell("kill -9 $$"));
  const auto killed = dies.waitExit(Clock::now() + 5s);
  REQUIRE(killed);
  CHECK(killed->signaled);
  CHECK(killed->value == SIGKILL);
  CHECK(killed->shellStatus() == 128 + SIGKILL);
  CHECK_THAT(killed->describe(), Catch::StartsWith("killed by signal 9"));
  CHECK(killed->describe() != exited->describe());

  // Reaped once: asking again gives the same answer without waiting.
  const auto again = dies.waitExit(Clock::now());
  REQUIRE(again);
  CHECK(again->signaled);
  CHECK(dies.kill().value == SIGKILL);
}

TEST_CASE("what is written to stdin comes back through stdout", "[child_process]") {
  ChildProcess cat({.argv = {"cat"}});
  REQUIRE(cat.stdinFd() >= 0);
  CHECK(cat.writeAll("hello\n", Clock::now() + 5s) == ChildProcess::WriteResult::Done);
  cat.closeStdin();
  CHECK(cat.stdinFd() < 0);
  CHECK(readAll(cat) == "hello\n");
  CHECK(cat.stdoutFd() < 0);
  std::array<char, 8> buffer{};
  CHECK(cat.readSome(buffer, Clock::now()) == std::size_t{0}); // and again, at once
  const auto status = cat.waitExit(Clock::now() + 5s);
  REQUIRE(status);
  CHECK(status->shellStatus() == 0);
  CHECK(cat.writeAll("late") == ChildProcess::WriteResult::Closed);
}

TEST_CASE("stdin can be a file", "[child_process]") {
  TempFile input("stdin");
  input.write("from a file\n");
  ChildProcess cat({.argv = {"cat"}, .stdinFile = input.path()});
  CHECK(cat.stdinFd() < 0);
  CHECK(readAll(cat) == "from a file\n");
  CHECK(cat.writeSome("x") == std::nullopt);

  CHECK_THROWS_AS(ChildProcess({.argv = {"cat"}, .stdinFile = input.path() + ".missing"}), std::system_error);
}

TEST_CASE("stderr can go to a file, which is truncated first", "[child_process]") {
  TempFile log("stderr");
  log.write("left over from before, and longer than what comes next\n");
  ChildProcess child({.argv = {"sh", "-c", "echo out; echo oops >&2"}, .stderrFile = log.path()});
  CHECK(readAll(child) == "out\n");
  REQUIRE(child.waitExit(Clock::now() + 5s));
  CHECK(log.read() == "oops\n");
}

TEST_CASE("writing to a child that exited fails without SIGPIPE", "[child_process]") {
  // Under the default disposition a SIGPIPE would end the test binary here.
  struct sigaction previous {};
  struct sigaction defaults {};
  defaults.sa_handler = SIG_DFL;
  ::sigaction(SIGPIPE, &defaults, &previous);
  {
    ChildProcess child({.argv = {"true"}});
    REQUIRE(child.waitExit(Clock::now() + 5s));
    CHECK(child.writeSome("x") == std::nullopt);
    CHECK(child.writeAll(std::string(1 << 20, 'x')) == ChildProcess::WriteResult::Closed);
  }
  sigset_t pending;
  sigpending(&pending);
  CHECK_FALSE(sigismember(&pending, SIGPIPE));
  ::sigaction(SIGPIPE, &previous, nullptr);
}

TEST_CASE("reads and writes give up at their deadline", "[child_process]") {
  ChildProcess child({.argv = {"sleep", "10"}});
  std::array<char, 64> buffer{};

  auto start = Clock::now();
  CHECK(child.readSome(buffer, start + 200ms) == std::nullopt);
  auto waited = Clock::now() - start;
  CHECK(waited >= 200ms);
  CHECK(waited < 3s);

  // sleep reads nothing: once the pipe is full, the write waits, then gives up.
  start = Clock::now();
  CHECK(child.writeAll(std::string(4 << 20, 'x'), start + 200ms) == ChildProcess::WriteResult::Timeout);
  waited = Clock::now() - start;
  CHECK(waited >= 200ms);
  CHECK(waited < 3s);

  CHECK_FALSE(child.waitExit(Clock::now() + 50ms));
}

TEST_CASE("output that arrives before the deadline is read", "[child_process]") {
  ChildProcess child(shell("sleep 0.2; echo late"));
  std::array<char, 64> buffer{};
  const auto n = child.readSome(buffer, Clock::now() + 5s);
  REQUIRE(n);
  CHECK(std::string(buffer.data(), *n) == "late\n");
}

TEST_CASE("terminate: SIGTERM, then SIGKILL after the grace", "[child_process]") {
  SECTION("a child that honours SIGTERM ends by it at once") {
    ChildProcess child({.argv = {"sleep", "10"}});
    const auto start = Clock::now();
    const auto status = child.terminate(5s);
    CHECK(status.signaled);
    CHECK(status.value == SIGTERM);
    CHECK(Clock::now() - start < 3s);
  }
  SECTION("a child that ignores SIGTERM is killed once the grace is over") {
    // `exec` so that sleep itself, not a shell waiting for it, is the child that ignores TERM.
    ChildProcess child(shell("trap '' TERM; echo ready; exec sleep 10"));
    std::array<char, 16> buffer{};
    const auto n = child.readSome(buffer, Clock::now() + 5s);
    REQUIRE(n);
    REQUIRE(std::string(buffer.data(), *n) == "ready\n");
    const auto start = Clock::now();
    const auto status = child.terminate(300ms);
    const auto waited = Clock::now() - start;
    CHECK(status.signaled);
    CHECK(status.value == SIGKILL);
    CHECK(waited >= 300ms);
    CHECK(waited < 3s);
  }
}

TEST_CASE("a child still running when the object goes is killed and reaped", "[child_process]") {
  pid_t pid = -1;
  {
    ChildProcess child({.argv = {"sleep", "10"}});
    pid = child.pid();
    REQUIRE(::kill(pid, 0) == 0);
  }
  // Reaped, not a zombie: the pid is gone.
  CHECK(::kill(pid, 0) == -1);
  CHECK(errno == ESRCH);
}

TEST_CASE("a new process group, when asked for", "[child_process]") {
  ChildProcess own({.argv = {"sleep", "10"}, .newProcessGroup = true});
  CHECK(::getpgid(own.pid()) == own.pid());
  ChildProcess shared({.argv = {"sleep", "10"}});
  CHECK(::getpgid(shared.pid()) == ::getpgrp());
}

TEST_CASE("a client's child inherits no descriptor of its parent but its three streams") {
  // A descriptor leaked without O_CLOEXEC (by a library, say) must not reach toold: it would keep
  // a pipe of the client's open for as long as toold and its own children live.
  // Numbered high (F_DUPFD, like dup, leaves O_CLOEXEC unset), so that it cannot be mistaken for
  // the descriptor ls opens on /proc/self/fd, which takes the lowest free number in the child.
  const int leaked = ::fcntl(STDERR_FILENO, F_DUPFD, 64);
  REQUIRE(leaked >= 64);
  ChildProcess child(shell("ls /proc/self/fd"));
  child.closeStdin();
  const std::string listed = readAll(child);
  ::close(leaked);
  // ls itself opens one descriptor to read the folder; anything beyond 0, 1, 2 and that is a leak.
  std::vector<std::string> fds;
  for (std::size_t start = 0; start < listed.size();) {
    const auto end = listed.find('\n', start);
    fds.push_back(listed.substr(start, end - start));
    start = end == std::string::npos ? listed.size() : end + 1;
  }
  CHECK(fds.size() <= 4);
  CHECK(std::find(fds.begin(), fds.end(), std::to_string(leaked)) == fds.end());
  const auto status = child.waitExit(Clock::now() + 5s);
  REQUIRE(status);
  CHECK(status->describe() == "exit status 0");
}

TEST_CASE("a client's child starts with no signal blocked, whatever the starting thread blocked") {
  sigset_t blocked, previous;
  sigemptyset(&blocked);
  sigaddset(&blocked, SIGTERM);
  sigaddset(&blocked, SIGUSR1);
  REQUIRE(::pthread_sigmask(SIG_BLOCK, &blocked, &previous) == 0);
  // grep itself, not through sh: dash clears the signal mask when it starts.
  ChildProcess child({.argv = {"grep", "^SigBlk:", "/proc/self/status"}});
  ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  child.closeStdin();
  CHECK(readAll(child) == "SigBlk:\t0000000000000000\n");
  const auto status = child.waitExit(Clock::now() + 5s);
  REQUIRE(status);
  CHECK(status->describe() == "exit status 0");
}
