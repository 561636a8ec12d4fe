// The stdin reader: frames that come while it watches for them, the end of input, and stop().
#include "daemon/stdin_reader.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <condition_variable>
#include <fcntl.h>
#include <mutex>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

using toold::daemon::StdinReader;
using namespace std::chrono_literals;

namespace {

/// A pipe standing for stdin, and what the reader handed on.
struct ReaderUnderTest {
  int in[2] = {-1, -1};
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<std::string> bodies;
  bool ended = false;
  int endError = -1;

  ReaderUnderTest() { REQUIRE(::pipe2(in, O_CLOEXEC) == 0); }
  ~ReaderUnderTest() {
    for (int fd : in)
      if (fd >= 0) ::close(fd);
  }

  StdinReader make(std::chrono::microseconds watch) {
    return StdinReader(
        in[0], toold::protocol::Framing::Ndjson, 1 << 20, watch,
        [this](std::vector<toold::protocol::DecodedFrame>&& frames) {
          std::lock_guard lock(mutex);
          for (auto& frame : frames) bodies.push_back(frame.body);
          changed.notify_all();
        },
        [this](int error) {
          std::lock_guard lock(mutex);
          ended = true;
          endError = error;
          changed.notify_all();
        });
  }

  void send(const std::string& text) { REQUIRE(::write(in[1], text.data(), text.size()) == static_cast<ssize_t>(text.size())); }

  bool waitForBodies(std::size_t count) {
    std::unique_lock lock(mutex);
    return changed.wait_for(lock, 5s, [&] { return bodies.size() >= count; });
  }
};

} // namespace

TEST_CASE("stdin reader: a frame that comes while it watches is read, and so is the end of input", "[stdin-reader]") {
  ReaderUnderTest pipe;
  // A watch far longer than the test: every wait after the first frame is watched, not slept.
  StdinReader reader = pipe.make(std::chrono::microseconds(std::chrono::seconds(10)));
  std::thread running([&] { reader.run(); });
  pipe.send("{\"a\":1}\n");
  REQUIRE(pipe.waitForBodies(1));
  std::this_thread::sleep_for(5ms);
  pipe.send("{\"b\":2}\n{\"c\":3}\n");
  REQUIRE(pipe.waitForBodies(3));
  // The end of input during the watch ends the reading at once, not when the watch is over.
  const auto closedAt = std::chrono::steady_clock::now();
  ::close(pipe.in[1]);
  pipe.in[1] = -1;
  running.join();
  CHECK(std::chrono::steady_clock::now() - closedAt < 2s);
  std::lock_guard lock(pipe.mutex);
  CHECK(pipe.bodies == std::vector<std::string>{"{\"a\":1}", "{\"b\":2}", "{\"c\":3}"});
  CHECK(pipe.ended);
  CHECK(pipe.endError == 0);
}

TEST_CASE("stdin reader: stop() ends a watch at once, without calling the end handler", "[stdin-reader]") {
  ReaderUnderTest pipe;
  StdinReader reader = pipe.make(std::chrono::microseconds(std::chrono::seconds(10)));
  std::thread running([&] { reader.run(); });
  pipe.send("{\"a\":1}\n");
  REQUIRE(pipe.waitForBodies(1));
  std::this_thread::sleep_for(5ms); // watching now
  const auto stoppedAt = std::chrono::steady_clock::now();
  reader.stop();
  running.join();
  CHECK(std::chrono::steady_clock::now() - stoppedAt < 2s);
  std::lock_guard lock(pipe.mutex);
  CHECK_FALSE(pipe.ended);
}
