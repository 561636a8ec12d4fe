// The stdout writer: whole frames in order from many threads, corking, and a broken pipe.
#include "daemon/stdout_writer.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <fcntl.h>
#include <memory>
#include <mutex>
#include <poll.h>
#include <sys/ioctl.h>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

using toold::daemon::StdoutWriter;

namespace {

struct Pipe {
  int read = -1;
  int write = -1;
  Pipe() {
    int fds[2];
    REQUIRE(::pipe2(fds, O_CLOEXEC) == 0);
    read = fds[0];
    write = fds[1];
  }
  ~Pipe() {
    if (read >= 0) ::close(read);
    if (write >= 0) ::close(write);
  }
  // Everything written until the write end is closed.
  std::string drain() {
    ::close(write);
    write = -1;
    std::string all;
    char buffer[65536];
    for (ssize_t n; (n = ::read(read, buffer, sizeof buffer)) > 0;) all.append(buffer, static_cast<std::size_t>(n));
    return all;
  }
};

} // namespace

TEST_CASE("frames from many threads arrive whole and in each sender's order", "[writer]") {
  Pipe pipe;
  std::string output;
  std::thread reader([&] {
    char buffer[65536];
    for (ssize_t n; (n = ::read(pipe.read, buffer, sizeof buffer)) > 0;) output.append(buffer, static_cast<std::size_t>(n));
  });
  {
    StdoutWriter writer(pipe.write, [] {});
    std::vector<std::thread> senders;
    for (int t = 0; t < 4; ++t) {
      senders.emplace_back([&writer, t] {
        for (int i = 0; i < 3000; ++i) {
          // Sizes vary across the inline-write limit, so both paths are taken.
          const std::size_t padding = static_cast<std::size_t>((i * 37) % 6000);
          writer.send(std::to_string(t) + ":" + std::to_string(i) + ":" + std::string(padding, 'x') + "\n");
        }
      });
    }
    for (auto& sender : senders) sender.join();
    REQUIRE(writer.flush(std::chrono::seconds(10)));
    writer.stop(std::chrono::seconds(1));
  }
  ::close(pipe.write);
  pipe.write = -1;
  reader.join();

  std::vector<int> next(4, 0);
  std::size_t lines = 0;
  for (std::size_t at = 0; at < output.size();) {
    const std::size_t end = output.find('\n', at);
    REQUIRE(end != std::string::npos);
    const std::string line = output.substr(at, end - at);
    at = end + 1;
    const auto first = line.find(':');
    const auto second = line.find(':', first + 1);
    const int t = std::stoi(line.substr(0, first));
    const int i = std::stoi(line.substr(first + 1, second - first - 1));
    REQUIRE(i == next[static_cast<std::size_t>(t)]);
    ++next[static_cast<std::size_t>(t)];
    REQUIRE(line.size() - second - 1 == static_cast<std::size_t>((i * 37) % 6000)); // not torn
    ++lines;
  }
  CHECK(lines == 12000);
}

TEST_CASE("a cork holds frames until the last cork ends, then writes them together", "[writer]") {
  Pipe pipe;
  StdoutWriter writer(pipe.write, [] {});
  {
    StdoutWriter::Cork outer(writer);
    {
      StdoutWriter::Cork inner(writer);
      writer.send("a\n");
    }
    writer.send("b\n");
    // Nothing may have been written while corked.
    pollfd pfd{pipe.read, POLLIN, 0};
    CHECK(::poll(&pfd, 1, 50) == 0);
  }
  REQUIRE(writer.flush(std::chrono::seconds(5)));
  writer.stop(std::chrono::seconds(1));
  CHECK(pipe.drain() == "a\nb\n");
}

TEST_CASE("a closed output is reported once and later frames are dropped", "[writer]") {
  std::signal(SIGPIPE, SIG_IGN);
  Pipe pipe;
  ::close(pipe.read);
  pipe.read = -1;
  std::atomic<int> broken{0};
  StdoutWriter writer(pipe.write, [&] { broken.fetch_add(1); });
  writer.send("lost\n");
  writer.send("lost too\n");
  CHECK(writer.flush(std::chrono::seconds(5)));
  writer.send("after\n");
  writer.stop(std::chrono::seconds(1));
  CHECK(broken.load() == 1);
}

TEST_CASE("the backlog watcher hears when answers pile up past the high mark and when they drain", "[writer]") {
  Pipe pipe;
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<bool> events;
  StdoutWriter writer(pipe.write, [] {});
  writer.watchBacklog(256 * 1024, 64 * 1024, [&](bool pressured) {
    std::lock_guard lock(mutex);
    events.push_back(pressured);
    changed.notify_all();
  });
  // Nobody reads: the pipe takes at most 64 KiB (Linux's default), the rest waits in the writer.
  constexpr std::size_t kFrames = 16, kFrameBytes = 32 * 1024;
  for (std::size_t i = 0; i < kFrames; ++i) writer.send(std::string(kFrameBytes, static_cast<char>('a' + i)));
  {
    // Reported by the send that crossed the mark, on the sending thread: already here.
    std::lock_guard lock(mutex);
    CHECK(events == std::vector<bool>{true});
  }
  CHECK(writer.backlogBytes() > 256 * 1024);

  std::size_t received = 0;
  std::thread reader([&] {
    char buffer[65536];
    while (received < kFrames * kFrameBytes) {
      const ssize_t n = ::read(pipe.read, buffer, sizeof buffer);
      if (n <= 0) break;
      received += static_cast<std::size_t>(n);
    }
  });
  reader.join();
  CHECK(received == kFrames * kFrameBytes);
  CHECK(writer.flush(std::chrono::seconds(5)));
  {
    // The handler runs under the writer's lock and takes this one: never call the writer while
    // holding it (that order, reversed, is a deadlock waiting to happen).
    std::unique_lock lock(mutex);
    CHECK(changed.wait_for(lock, std::chrono::seconds(5), [&] { return events.size() >= 2; }));
    CHECK(events == std::vector<bool>{true, false});
  }
  CHECK(writer.backlogBytes() == 0);
}

TEST_CASE("a frame the pipe has room for is written by the sender, one it has not never blocks it", "[writer]") {
  const auto mode = GENERATE(StdoutWriter::InlineWrites::NoWaitFirst, StdoutWriter::InlineWrites::LookFirst);
  Pipe pipe;
  REQUIRE(::fcntl(pipe.write, F_SETPIPE_SZ, 65536) >= 65536);
  StdoutWriter writer(pipe.write, [] {}, mode);
  // An empty pipe: a 30 KB frame is in the pipe by the time send returns.
  const std::string first(30'000, 'a');
  writer.send(first + "\n");
  CHECK(writer.backlogBytes() == 0);
  int unread = 0;
  REQUIRE(::ioctl(pipe.read, FIONREAD, &unread) == 0);
  CHECK(unread == 30'001);
  // With 30 KB unread there is no room for 40 KB: that frame is the writer thread's, and send
  // returns although the pipe cannot take it (a blocking write here would hang this test).
  const std::string second(40'000, 'b');
  writer.send(second + "\n");
  writer.send("last\n");
  CHECK(writer.backlogBytes() > 0);
  std::string all;
  char buffer[65536];
  while (all.size() < 70'007) {
    const ssize_t n = ::read(pipe.read, buffer, sizeof buffer);
    REQUIRE(n > 0);
    all.append(buffer, static_cast<std::size_t>(n));
  }
  CHECK(all == first + "\n" + second + "\nlast\n");
  CHECK(writer.flush(std::chrono::seconds(5)));
}

TEST_CASE("frames sent while nothing is read fill the pipe to its bound and never block the sender", "[writer]") {
  const auto mode = GENERATE(StdoutWriter::InlineWrites::NoWaitFirst, StdoutWriter::InlineWrites::LookFirst);
  Pipe pipe;
  REQUIRE(::fcntl(pipe.write, F_SETPIPE_SZ, 65536) >= 65536);
  StdoutWriter writer(pipe.write, [] {}, mode);
  // 30 frames of 3 KB (90 KB into a 64 KB pipe, where each takes a page of its own): the last
  // ones are the writer thread's, and no send blocks here. Looking first, the writer asks the
  // pipe only now and then, counting what it wrote since.
  std::string expected;
  for (int i = 0; i < 30; ++i) {
    std::string frame(3'000, static_cast<char>('a' + i % 26));
    frame += '\n';
    expected += frame;
    writer.send(std::move(frame));
  }
  CHECK(writer.backlogBytes() > 0);
  int unread = 0;
  REQUIRE(::ioctl(pipe.read, FIONREAD, &unread) == 0);
  CHECK(unread > 0);
  CHECK(static_cast<std::size_t>(unread) <= 65536);
  std::string all;
  char buffer[65536];
  while (all.size() < expected.size()) {
    const ssize_t n = ::read(pipe.read, buffer, sizeof buffer);
    REQUIRE(n > 0);
    all.append(buffer, static_cast<std::size_t>(n));
  }
  CHECK(all == expected);
  CHECK(writer.flush(std::chrono::seconds(5)));
  // Read out, the pipe has room again: the next frame is written by the sender.
  writer.send("again\n");
  CHECK(writer.backlogBytes() == 0);
}

TEST_CASE("frames of pieces are written as they are, in order with the others, across partial writes", "[writer]") {
  Pipe pipe;
  ::fcntl(pipe.write, F_SETPIPE_SZ, 4096); // a small pipe: most writes end part way
  std::string output;
  std::thread reader([&] {
    char buffer[1000];
    for (ssize_t n; (n = ::read(pipe.read, buffer, sizeof buffer)) > 0;) {
      output.append(buffer, static_cast<std::size_t>(n));
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
  });
  // More pieces than one writev takes (IOV_MAX), some empty, of many sizes.
  auto texts = std::make_shared<std::vector<std::string>>();
  for (int i = 0; i < 3000; ++i) texts->push_back(std::string(static_cast<std::size_t>(i % 37), static_cast<char>('a' + i % 26)));
  std::string expected;
  {
    StdoutWriter writer(pipe.write, [] {});
    for (int round = 0; round < 3; ++round) {
      const std::string plain = "plain " + std::to_string(round) + "\n";
      writer.send(plain);
      expected += plain;
      toold::protocol::PiecedText frame;
      frame.head = "head " + std::to_string(round) + ":";
      for (const auto& text : *texts) frame.pieces.emplace_back(text);
      frame.tail = "\n";
      frame.keep = texts;
      expected += frame.joined();
      writer.sendPieces(std::move(frame));
    }
    writer.send("last\n");
    expected += "last\n";
    CHECK(writer.flush(std::chrono::milliseconds(20000)));
    writer.stop(std::chrono::milliseconds(1000));
  }
  ::close(pipe.write);
  pipe.write = -1;
  reader.join();
  CHECK(output == expected);
}
