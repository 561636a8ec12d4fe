// Writer thread: takes every queued frame at once and writes them as one block.
#include "daemon/stdout_writer.h"

#include <cerrno>
#include <poll.h>
#include <unistd.h>

namespace toold::daemon {
namespace {

// A pipe that polls writable has a free 4 KiB slot, so a write of at most this many bytes cannot
// block. (Regular files and terminals always poll writable.)
constexpr std::size_t kInlineWriteMax = 4096;

} // namespace

StdoutWriter::StdoutWriter(int fd, std::function<void()> onBroken) : fd_(fd), onBroken_(std::move(onBroken)) {
  thread_ = std::thread([this] { run(); });
}

StdoutWriter::~StdoutWriter() { stop(std::chrono::milliseconds(0)); }

void StdoutWriter::send(std::string frame) {
  std::unique_lock lock(mutex_);
  if (stopping_ || broken_) return;
  backlog_ += frame.size();
  queue_.push_back(std::move(frame));
  checkBacklog();
  if (corks_ == 0) writeQueuedOrWake(lock);
}

std::size_t StdoutWriter::backlogBytes() const {
  std::lock_guard lock(mutex_);
  return backlog_;
}

void StdoutWriter::watchBacklog(std::size_t highWater, std::size_t lowWater, std::function<void(bool)> onPressure) {
  std::lock_guard lock(mutex_);
  highWater_ = highWater;
  lowWater_ = lowWater;
  onPressure_ = std::move(onPressure);
}

void StdoutWriter::checkBacklog() {
  if (!onPressure_) return;
  if (!pressured_ && backlog_ > highWater_) {
    pressured_ = true;
    onPressure_(true);
  } else if (pressured_ && backlog_ < lowWater_) {
    pressured_ = false;
    onPressure_(false);
  }
}

StdoutWriter::Cork::Cork(StdoutWriter& writer) : writer_(writer) {
  std::lock_guard lock(writer_.mutex_);
  ++writer_.corks_;
}

StdoutWriter::Cork::~Cork() {
  std::unique_lock lock(writer_.mutex_);
  if (--writer_.corks_ == 0 && !writer_.queue_.empty()) writer_.writeQueuedOrWake(lock);
}

void StdoutWriter::writeQueuedOrWake(std::unique_lock<std::mutex>& lock) {
  if (writing_) return; // the writer thread, or another sender, will find the queue
  std::size_t bytes = 0;
  for (const auto& frame : queue_) bytes += frame.size();
  if (bytes <= kInlineWriteMax && hasRoom()) writeQueue(lock);
  // Frames queued meanwhile, a broken pipe, or a block too big to write here are the writer
  // thread's. Waking it for nothing would cost a context switch per request.
  if (!queue_.empty() || broken_) wake_.notify_one();
}

void StdoutWriter::writeQueue(std::unique_lock<std::mutex>& lock) {
  std::string block;
  for (auto& frame : queue_) block += frame;
  queue_.clear();
  writing_ = true;
  lock.unlock();
  const bool ok = writeAll(block);
  if (!ok && onBroken_) onBroken_();
  lock.lock();
  writing_ = false;
  backlog_ -= block.size();
  if (!ok) {
    broken_ = true;
    queue_.clear();
    backlog_ = 0; // nothing will be written any more: whoever waits for room must not wait forever
  }
  checkBacklog();
  if (queue_.empty()) drained_.notify_all();
}

bool StdoutWriter::hasRoom() const {
  pollfd pfd{fd_, POLLOUT, 0};
  return ::poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLOUT) != 0;
}

bool StdoutWriter::flush(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  return drained_.wait_for(lock, timeout, [this] { return broken_ || (queue_.empty() && !writing_); });
}

void StdoutWriter::stop(std::chrono::milliseconds timeout) {
  if (!thread_.joinable()) return;
  flush(timeout);
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    wake_.notify_one();
  }
  thread_.join();
}

bool StdoutWriter::writeAll(const std::string& bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd_, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

void StdoutWriter::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    // An inline write may be in progress (writing_): wait for it, so frames stay in order. While
    // corked, queued frames wait for the cork's end, which writes them or wakes this thread.
    wake_.wait(lock, [this] { return broken_ || (!writing_ && (stopping_ || (!queue_.empty() && corks_ == 0))); });
    if (broken_) {
      wake_.wait(lock, [this] { return stopping_; });
      return;
    }
    if (queue_.empty()) return; // stopping, and nothing left
    writeQueue(lock);
  }
}

} // namespace toold::daemon
