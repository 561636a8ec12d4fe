// The stdin reader: poll on stdin and a wake pipe, so stop() never waits on a read.
#include "daemon/stdin_reader.h"

#include "daemon/busy_poll_policy.h"

#include <cerrno>
#include <chrono>
#include <memory>
#include <span>
#include <fcntl.h>
#include <poll.h>
#include <sys/uio.h>
#include <unistd.h>

namespace toold::daemon {
namespace {

constexpr std::size_t kReadChunk = 256 * 1024;
// How many frames may wait for the loop before the reader pauses: enough for any pipelining client.
constexpr std::size_t kMaxQueuedFrames = 8192;
// One read can hold thousands of small requests; they are handed on in slices of this many, each
// after checking for room, so that answers stop being produced soon after the output backs up.
constexpr std::size_t kFramesPerSlice = 256;

} // namespace

StdinReader::StdinReader(int fd, protocol::Framing framing, std::size_t maxFrameBytes,
                         std::chrono::microseconds busyPoll, FramesHandler onFrames, EndHandler onEnd)
    : fd_(fd), busyPoll_(busyPoll), decoder_(framing, maxFrameBytes), framing_(framing), onFrames_(std::move(onFrames)),
      onEnd_(std::move(onEnd)) {
  if (::pipe2(wakeFds_, O_CLOEXEC) != 0) wakeFds_[0] = wakeFds_[1] = -1;
}

StdinReader::~StdinReader() {
  stop();
  for (int wakeFd : wakeFds_)
    if (wakeFd >= 0) ::close(wakeFd);
}

void StdinReader::stop() {
  if (!stopping_.exchange(true)) {
    if (wakeFds_[1] >= 0) {
      const char byte = 0;
      [[maybe_unused]] auto n = ::write(wakeFds_[1], &byte, 1);
    }
    std::lock_guard lock(mutex_);
    roomAvailable_.notify_all();
  }
}

void StdinReader::framesConsumed(std::size_t count) {
  std::lock_guard lock(mutex_);
  framesInQueue_ = count > framesInQueue_ ? 0 : framesInQueue_ - count;
  if (framesInQueue_ < kMaxQueuedFrames) roomAvailable_.notify_one();
}

void StdinReader::setOutputBlocked(bool blocked) {
  std::lock_guard lock(mutex_);
  outputBlocked_ = blocked;
  if (!blocked) roomAvailable_.notify_one();
}

void StdinReader::waitForRoom() {
  std::unique_lock lock(mutex_);
  roomAvailable_.wait(lock, [this] {
    return (framesInQueue_ < kMaxQueuedFrames && !outputBlocked_) || stopping_.load();
  });
}

void StdinReader::run() {
  // Not zero-filled: a page of it is touched only when a read reaches it, so a client sending
  // small frames never costs toold the whole chunk (64 page faults at every start, measured).
  const auto chunkMemory = std::make_unique_for_overwrite<char[]>(kReadChunk);
  const std::span<char> chunk(chunkMemory.get(), kReadChunk);
  std::vector<protocol::DecodedFrame> frames;
  const protocol::FrameDecoder::Sink collect = [&frames](protocol::DecodedFrame&& frame) {
    frames.push_back(std::move(frame));
  };
  auto handOnSlice = [&](std::vector<protocol::DecodedFrame>& slice) {
    if (slice.empty()) return;
    {
      std::lock_guard lock(mutex_);
      framesInQueue_ += slice.size();
    }
    onFrames_(std::move(slice));
    slice.clear();
  };
  auto handOn = [&] {
    if (framing_.load(std::memory_order_relaxed) != decoder_.framing())
      framing_.store(decoder_.framing(), std::memory_order_release);
    if (frames.size() <= kFramesPerSlice) return handOnSlice(frames);
    std::vector<protocol::DecodedFrame> slice;
    for (std::size_t begin = 0; begin < frames.size(); begin += kFramesPerSlice) {
      if (begin > 0) waitForRoom();
      if (stopping_.load()) break;
      const std::size_t end = std::min(frames.size(), begin + kFramesPerSlice);
      slice.assign(std::make_move_iterator(frames.begin() + static_cast<std::ptrdiff_t>(begin)),
                   std::make_move_iterator(frames.begin() + static_cast<std::ptrdiff_t>(end)));
      handOnSlice(slice);
    }
    frames.clear();
  };

  int error = 0;
  // Whether reads may say "nothing yet" instead of sleeping (RWF_NOWAIT; pipes on newer kernels).
  bool tryNoWait = true;
  BusyPollPolicy watchPolicy(busyPoll_);

  // Reads what stdin holds without sleeping: the bytes' count, 0 at its end, or -1 with errno
  // (EAGAIN: nothing yet).
  auto readNoWait = [&] {
    iovec into{chunk.data(), chunk.size()};
    return ::preadv2(fd_, &into, 1, -1, RWF_NOWAIT);
  };
  // What a read returned: false when the reading is over (the end, or `error` set).
  auto took = [&](ssize_t n) {
    if (n > 0) {
      decoder_.feed(std::string_view(chunk.data(), static_cast<std::size_t>(n)), collect);
      handOn();
      return true;
    }
    if (n == 0) return false;
    if (errno == EINTR || errno == EAGAIN) return true;
    error = errno;
    return false;
  };

  while (!stopping_.load()) {
    waitForRoom();
    if (stopping_.load()) return;
    // A pipelining client has usually sent more while the last frames were handled: read it at
    // once, without first asking poll whether there is anything.
    if (tryNoWait) {
      const ssize_t n = readNoWait();
      if (n < 0 && (errno == EOPNOTSUPP || errno == EINVAL)) tryNoWait = false;
      else if (n >= 0 || errno != EAGAIN) {
        if (!took(n)) break;
        continue;
      }
    }
    // Busy-poll briefly before sleeping: a client in a request/response exchange usually sends
    // again within microseconds, and waking a sleeping thread on a VM costs tens of them. Only
    // while it pays (daemon/busy_poll_policy.h): a client whose frames come after the watch — a
    // person, a runner waiting on a model, a script slower than the watch — is not spun for, as
    // that burns a CPU its other processes need.
    const auto waitFrom = std::chrono::steady_clock::now();
    const auto spinUntil = waitFrom + busyPoll_;
    const bool watched = watchPolicy.watchNext();
    bool spunByReading = false;
    if (watched && tryNoWait) {
      // Watched by reading: the frame that comes is read by the very call that sees it, where
      // asking poll first took a system call more per request (on a VM, system calls are most of
      // a small request's CPU). stop() is seen through its flag; the watch is short.
      ssize_t n = -1;
      do n = readNoWait();
      while (n < 0 && errno == EAGAIN && !stopping_.load(std::memory_order_relaxed) &&
             std::chrono::steady_clock::now() < spinUntil);
      if (n >= 0 || errno != EAGAIN) {
        watchPolicy.waited(true, true, std::chrono::steady_clock::now() - waitFrom);
        if (!took(n)) break;
        continue;
      }
      spunByReading = true;
    }
    pollfd fds[2] = {{fd_, POLLIN, 0}, {wakeFds_[0], POLLIN, 0}};
    const nfds_t count = wakeFds_[0] >= 0 ? 2 : 1;
    int ready = 0;
    while (watched && !spunByReading && (ready = ::poll(fds, count, 0)) == 0 &&
           std::chrono::steady_clock::now() < spinUntil) {
    }
    const bool caught = ready != 0;
    if (ready == 0) ready = ::poll(fds, count, -1);
    watchPolicy.waited(watched, caught, std::chrono::steady_clock::now() - waitFrom);
    if (ready < 0) {
      if (errno == EINTR) continue;
      error = errno;
      break;
    }
    if (fds[1].revents != 0) return; // stop() was called
    if (!took(::read(fd_, chunk.data(), chunk.size()))) break;
  }
  decoder_.finish(collect);
  handOn();
  if (!stopping_.load()) onEnd_(error);
}

} // namespace toold::daemon
