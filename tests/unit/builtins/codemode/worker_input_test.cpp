// The worker's input, read by the engine's thread: programs, answers, wakes and deadlines.
#include "builtins/codemode/worker_input.h"

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <thread>

using namespace toold::codemode;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {

struct Pipe {
  int fds[2] = {-1, -1};
  Pipe() { REQUIRE(::pipe2(fds, O_CLOEXEC) == 0); }
  ~Pipe() {
    for (int fd : fds)
      if (fd >= 0) ::close(fd);
  }
  void write(const std::string& text) const { REQUIRE(::write(fds[1], text.data(), text.size()) == static_cast<ssize_t>(text.size())); }
  void close() {
    ::close(fds[1]);
    fds[1] = -1;
  }
};

} // namespace

TEST_CASE("worker input: runs in order, answers of no program dropped, lines split across reads", "[codemode]") {
  Pipe pipe;
  WorkerInput input(pipe.fds[0]);
  pipe.write(R"({"type":"result","id":1,"ok":true,"value":"stale"})" "\n" R"({"type":"run","code":"a"})" "\n" R"({"type":"ru)");
  auto run = input.nextRun();
  REQUIRE(run);
  CHECK((*run)["code"] == "a");
  pipe.write(R"(n","code":"b"})" "\n");
  run = input.nextRun();
  REQUIRE(run);
  CHECK((*run)["code"] == "b");
  pipe.close();
  CHECK_FALSE(input.nextRun());
  CHECK(input.ended());
}

TEST_CASE("worker input: a wait returns with the answers that came, or at a wake, or at its deadline", "[codemode]") {
  Pipe pipe;
  WorkerInput input(pipe.fds[0]);
  std::vector<ToolCompletion> out;
  // Answers (and a run sent meanwhile, kept for later) arrive from another thread.
  std::thread writer([&] {
    std::this_thread::sleep_for(20ms);
    pipe.write(R"({"type":"result","id":7,"ok":true,"value":{"n":1}})" "\n" R"({"type":"run","code":"next"})" "\n"
               R"({"type":"result","id":8,"ok":false,"error":{"kind":"ToolFailure","message":"no"}})" "\n");
  });
  while (out.size() < 2) input.wait(Clock::now() + 5s, out);
  writer.join();
  REQUIRE(out.size() == 2);
  CHECK(out[0].id == 7);
  CHECK(out[0].ok);
  CHECK(out[0].json == R"({"n":1})");
  CHECK(out[1].id == 8);
  CHECK_FALSE(out[1].ok);
  // A wake from another thread ends a wait that has no answer.
  out.clear();
  std::thread waker([&] {
    std::this_thread::sleep_for(20ms);
    input.wake();
  });
  const auto start = Clock::now();
  input.wait(start + 10s, out);
  waker.join();
  CHECK(out.empty());
  CHECK(Clock::now() - start < 5s);
  // Nothing at all: the deadline ends it.
  input.wait(Clock::now() + 30ms, out);
  CHECK(out.empty());
  // The run that came during the program is next.
  auto run = input.nextRun();
  REQUIRE(run);
  CHECK((*run)["code"] == "next");
}

TEST_CASE("worker input: answers in another key order or with spaces are still read", "[codemode]") {
  Pipe pipe;
  WorkerInput input(pipe.fds[0]);
  pipe.write(R"({"ok": true, "type": "result", "value": [1, 2], "id": 3})" "\n");
  std::vector<ToolCompletion> out;
  input.wait(Clock::now() + 5s, out);
  REQUIRE(out.size() == 1);
  CHECK(out[0].id == 3);
  CHECK(out[0].ok);
  CHECK(out[0].json == "[1,2]");
}

TEST_CASE("worker input: quietFor is false once a program or the end arrives, true after a quiet time", "[codemode]") {
  Pipe pipe;
  WorkerInput input(pipe.fds[0]);
  CHECK(input.quietFor(20ms));
  std::thread writer([&] {
    std::this_thread::sleep_for(20ms);
    pipe.write(R"({"type":"run","code":"x"})" "\n");
  });
  CHECK_FALSE(input.quietFor(10s));
  writer.join();
  auto run = input.nextRun(); // the program that ended the quiet is still there
  REQUIRE(run);
  CHECK((*run)["code"] == "x");
  pipe.close();
  CHECK_FALSE(input.quietFor(10s));
  CHECK(input.ended());
}

TEST_CASE("worker input: a raw text answer is taken whole, its bytes never read as lines", "[codemode]") {
  Pipe pipe;
  WorkerInput input(pipe.fds[0]);
  // Newlines and what looks like messages inside the text are the text's; it comes in pieces.
  const std::string text = "a\n{\"type\":\"run\",\"code\":\"not a program\"}\n\xC3\xA9";
  const std::string header = R"({"type":"text","id":5,"bytes":)" + std::to_string(text.size()) + "}\n";
  std::vector<ToolCompletion> out;
  std::thread writer([&] {
    pipe.write(header + text.substr(0, 3));
    std::this_thread::sleep_for(20ms);
    pipe.write(text.substr(3) + R"({"type":"result","id":6,"ok":true,"value":"after"})" "\n");
  });
  while (out.size() < 2) input.wait(Clock::now() + 5s, out);
  writer.join();
  REQUIRE(out.size() == 2);
  CHECK(out[0].id == 5);
  CHECK(out[0].ok);
  CHECK(out[0].text);
  CHECK(out[0].json == text);
  CHECK(out[1].id == 6);
  CHECK_FALSE(out[1].text);
  CHECK(out[1].json == R"("after")");
  // Between programs a stale text answer is skipped whole, the program after it found.
  pipe.write(header + text + R"({"type":"run","code":"real"})" "\n");
  auto run = input.nextRun();
  REQUIRE(run);
  CHECK((*run)["code"] == "real");
}
