// Writer thread: takes every queued frame at once and writes them as one block.
#include "daemon/stdout_writer.h"

#include <cerrno>
#include <unistd.h>

namespace toold::daemon {

StdoutWriter::StdoutWriter(int fd, std::function<void()> onBroken) : fd_(fd), onBroken_(std::move(onBroken)) {
  thread_ = std::thread([this] { run(); });
}

StdoutWriter::~StdoutWriter() { stop(std::chrono::milliseconds(0)); }

void StdoutWriter::send(std::string frame) {
  std::lock_guard lock(mutex_);
  if (stopping_ || broken_) return;
  queue_.push_back(std::move(frame));
  if (!writing_) wake_.notify_one();
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
  std::vector<std::string> batch;
  std::string block;
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return; // stopping, and nothing left
    batch.swap(queue_);
    writing_ = true;
    lock.unlock();
    block.clear();
    for (auto& frame : batch) block += frame;
    batch.clear();
    const bool ok = writeAll(block);
    if (!ok && onBroken_) onBroken_();
    lock.lock();
    writing_ = false;
    if (!ok) {
      broken_ = true;
      queue_.clear();
    }
    if (queue_.empty()) drained_.notify_all();
    if (broken_) {
      wake_.wait(lock, [this] { return stopping_; });
      return;
    }
  }
}

} // namespace toold::daemon
