// Writer thread: takes every queued frame at once and writes them as one block.
#include "daemon/stdout_writer.h"

#include <cerrno>
#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <utility>

namespace toold::daemon {
namespace {

// Of anything but a pipe, only this much is written inline, and only when it polls writable
// (regular files and terminals always do; a socket that does has room for at least this).
constexpr std::size_t kInlineWriteMax = 4096;
// A pipe holds its bytes in slots of a page each.
constexpr std::size_t kPipeSlot = 4096;

std::size_t slotsFor(std::size_t bytes) { return (bytes + kPipeSlot - 1) / kPipeSlot; }

} // namespace

StdoutWriter::StdoutWriter(int fd, std::function<void()> onBroken, InlineWrites inlineWrites)
    : fd_(fd), onBroken_(std::move(onBroken)), tryNoWait_(inlineWrites == InlineWrites::NoWaitFirst) {
  struct stat status {};
  if (::fstat(fd_, &status) == 0 && S_ISFIFO(status.st_mode)) {
    const int capacity = ::fcntl(fd_, F_GETPIPE_SZ);
    if (capacity > 0) pipeCapacity_ = static_cast<std::size_t>(capacity);
    slotsTakenAtMost_ = pipeCapacity_ / kPipeSlot; // unknown: the first frame looks
  }
  // The thread starts the first time a frame is left for it (writeQueuedOrWake): a client that
  // reads its answers never needs it, and toold answers initialize without starting it.
}

StdoutWriter::~StdoutWriter() { stop(std::chrono::milliseconds(0)); }

void StdoutWriter::send(std::string frame) { queue(Frame{std::move(frame), nullptr}); }

void StdoutWriter::sendPieces(protocol::PiecedText frame) {
  const std::size_t size = frame.size();
  queue(Frame{std::string(), std::make_shared<const protocol::PiecedText>(std::move(frame)), size});
}

void StdoutWriter::queue(Frame frame) {
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
  if (tryNoWait_) {
    writeQueue(lock, Wait::No);
  } else {
    std::size_t bytes = 0;
    for (const auto& frame : queue_) bytes += frame.size();
    bytes -= frontWritten_;
    if (hasRoomFor(bytes)) writeQueue(lock, Wait::Yes);
  }
  // Frames queued meanwhile, what the pipe had no room for, or a broken pipe are the writer
  // thread's. Waking it for nothing would cost a context switch per request.
  if (!queue_.empty() || broken_) {
    if (!thread_.joinable() && !stopping_) thread_ = std::thread([this] { run(); });
    wake_.notify_one();
  }
}

void StdoutWriter::writeQueue(std::unique_lock<std::mutex>& lock, Wait wait) {
  std::vector<Frame> frames;
  frames.swap(queue_);
  const std::size_t skip = std::exchange(frontWritten_, 0);
  std::size_t bytes = 0;
  for (const auto& frame : frames) bytes += frame.size();
  bytes -= skip;
  // Counted before the write, so no inline sender can take the same room meanwhile.
  slotsTakenAtMost_ += slotsFor(bytes);
  writing_ = true;
  lock.unlock();
  const WriteEnd end = writeFrames(frames, skip, wait);
  lock.lock();
  writing_ = false;
  if (end.status == WriteEnd::Status::Unsupported) tryNoWait_ = false; // not on this kernel or file: look first
  if (end.status == WriteEnd::Status::Broken) {
    broken_ = true;
    queue_.clear();
    frontWritten_ = 0;
    backlog_ = 0; // nothing will be written any more: whoever waits for room must not wait forever
    if (onBroken_) {
      lock.unlock();
      onBroken_();
      lock.lock();
    }
  } else {
    backlog_ -= end.written;
    // What the pipe had no room for goes back in front of anything queued meanwhile.
    std::size_t written = end.written + skip;
    std::size_t whole = 0;
    while (whole < frames.size() && written >= frames[whole].size()) written -= frames[whole++].size();
    if (whole < frames.size()) {
      frontWritten_ = written;
      queue_.insert(queue_.begin(), std::make_move_iterator(frames.begin() + static_cast<std::ptrdiff_t>(whole)),
                    std::make_move_iterator(frames.end()));
    }
  }
  checkBacklog();
  if (queue_.empty()) {
    frames.clear();
    queue_.swap(frames); // its room, for the next frames
    drained_.notify_all();
  }
}

bool StdoutWriter::hasRoomFor(std::size_t bytes) {
  if (pipeCapacity_ > 0) {
    const std::size_t slots = pipeCapacity_ / kPipeSlot;
    const std::size_t needed = slotsFor(bytes);
    // Only toold writes this pipe, so the room can only grow between looks: what the last look
    // found taken, plus what was written since, is an upper bound. The pipe is asked again only
    // when that bound leaves no room (in a request/response exchange, every few answers).
    if (slotsTakenAtMost_ + needed <= slots) return true;
    // A write starts a new slot unless its tail fits the last one, so any two slots in a row
    // (after the first, which may be partly read) together hold more than one slot's bytes: the
    // unread bytes take at most twice their slots, plus two.
    int unread = 0;
    if (::ioctl(fd_, FIONREAD, &unread) != 0 || unread < 0) return false;
    slotsTakenAtMost_ = 2 * slotsFor(static_cast<std::size_t>(unread)) + 2;
    return slotsTakenAtMost_ + needed <= slots;
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
  flush(timeout);
  std::thread thread;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    wake_.notify_one();
    thread.swap(thread_); // none when it never started, or after an earlier stop()
  }
  if (thread.joinable()) thread.join();
}

StdoutWriter::WriteEnd StdoutWriter::writeFrames(const std::vector<Frame>& frames, std::size_t skip, Wait wait) {
  // One system call for the frames as they are: gathering them into one block copied every answer.
  std::vector<iovec> pieces;
  pieces.reserve(frames.size());
  auto add = [&](std::string_view text) {
    if (text.size() > skip) pieces.push_back(iovec{const_cast<char*>(text.data()) + skip, text.size() - skip});
    skip = skip > text.size() ? skip - text.size() : 0;
  };
  for (const auto& frame : frames) {
    if (!frame.pieced) {
      add(frame.text);
      continue;
    }
    pieces.reserve(pieces.size() + frame.pieced->pieces.size() + 2);
    add(frame.pieced->head);
    for (const auto piece : frame.pieced->pieces) add(piece);
    add(frame.pieced->tail);
  }
  WriteEnd end;
  std::size_t next = 0;
  while (next < pieces.size()) {
    const int count = static_cast<int>(std::min<std::size_t>(pieces.size() - next, IOV_MAX));
    // RWF_NOWAIT writes what the pipe has room for and stops, where a plain write would sleep.
    const ssize_t n = ::pwritev2(fd_, pieces.data() + next, count, -1, wait == Wait::No ? RWF_NOWAIT : 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (wait == Wait::No && errno == EAGAIN) end.status = WriteEnd::Status::Full;
      else if (wait == Wait::No && (errno == EOPNOTSUPP || errno == EINVAL)) end.status = WriteEnd::Status::Unsupported;
      else end.status = WriteEnd::Status::Broken;
      return end;
    }
    end.written += static_cast<std::size_t>(n);
    // Past the pieces written whole, into the one written in part.
    auto written = static_cast<std::size_t>(n);
    while (next < pieces.size() && written >= pieces[next].iov_len) written -= pieces[next++].iov_len;
    if (written > 0) {
      pieces[next].iov_base = static_cast<char*>(pieces[next].iov_base) + written;
      pieces[next].iov_len -= written;
    }
  }
  return end;
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
    writeQueue(lock, Wait::Yes);
  }
}

} // namespace toold::daemon
