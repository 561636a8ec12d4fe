// Writer thread: takes every queued frame at once and writes them as one block.
#include "daemon/stdout_writer.h"

#include <cerrno>
#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace toold::daemon {
namespace {

// Of anything but a pipe, only this much is written inline, and only when it polls writable
// (regular files and terminals always do; a socket that does has room for at least this).
constexpr std::size_t kInlineWriteMax = 4096;
// A pipe holds its bytes in slots of a page each.
constexpr std::size_t kPipeSlot = 4096;

} // namespace

StdoutWriter::StdoutWriter(int fd, std::function<void()> onBroken) : fd_(fd), onBroken_(std::move(onBroken)) {
  struct stat status {};
  if (::fstat(fd_, &status) == 0 && S_ISFIFO(status.st_mode)) {
    const int capacity = ::fcntl(fd_, F_GETPIPE_SZ);
    if (capacity > 0) pipeCapacity_ = static_cast<std::size_t>(capacity);
  }
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
  if (hasRoomFor(bytes)) writeQueue(lock);
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

bool StdoutWriter::hasRoomFor(std::size_t bytes) const {
  if (pipeCapacity_ > 0) {
    // The unread bytes fill at most one slot more than their size needs (the first and last may
    // be partly read or written); the frame needs its own slots past those. Only toold writes
    // this pipe, so the room can only grow until the write.
    int unread = 0;
    if (::ioctl(fd_, FIONREAD, &unread) != 0 || unread < 0) return false;
    const std::size_t slots = pipeCapacity_ / kPipeSlot;
    const std::size_t taken = (static_cast<std::size_t>(unread) + kPipeSlot - 1) / kPipeSlot + 1;
    const std::size_t needed = (bytes + kPipeSlot - 1) / kPipeSlot;
    return taken + needed <= slots;
  }
  if (bytes > kInlineWriteMax) return false;
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
