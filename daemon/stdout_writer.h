// The one owner of stdout: frames from any thread are written whole and in order, one writer at
// a time. A frame finding the writer idle is written at once by the sending thread, as far as the
// pipe has room (a thread wake-up costs about as much as a whole request on a small VM); the rest,
// and every frame that finds the writer busy, is queued for the writer thread, so no loop thread
// ever blocks on a full pipe.
#pragma once

#include "protocol/pieced_text.h"

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace toold::daemon {

class StdoutWriter {
public:
  /// How a sending thread writes without ever blocking: by a write that stops where the pipe is
  /// full (RWF_NOWAIT, the default; kernels and files without it fall back to the other), or by
  /// looking at the pipe's free room first and writing only a frame that fits.
  enum class InlineWrites { NoWaitFirst, LookFirst };

  /// `onBroken` runs once, on the thread whose write failed, when the output can no longer be
  /// written (EPIPE).
  StdoutWriter(int fd, std::function<void()> onBroken, InlineWrites inlineWrites = InlineWrites::NoWaitFirst);
  ~StdoutWriter();
  StdoutWriter(const StdoutWriter&) = delete;
  StdoutWriter& operator=(const StdoutWriter&) = delete;

  /// Queues one encoded frame. Thread-safe; frames are written in the order send() was called.
  void send(std::string frame);
  /// The same for a frame of pieces (already framed: protocol::framePieces), written as they are.
  void sendPieces(protocol::PiecedText frame);

  /// The backlog, in bytes: frames queued and the block being written, until written.
  std::size_t backlogBytes() const;

  /// Back-pressure on answers: `onPressure(true)` when the backlog grows past `highWater` bytes,
  /// `onPressure(false)` once it has shrunk below `lowWater` (or the output broke). Called with
  /// the writer's lock held, so the calls arrive in order; the handler must not call the writer.
  /// Set it before anything is sent.
  void watchBacklog(std::size_t highWater, std::size_t lowWater, std::function<void(bool)> onPressure);

  /// While a Cork lives, frames are only queued; when the last Cork ends they are written as one
  /// block. The reader corks while it dispatches one read's frames, so a pipelining client's
  /// answers leave in one write instead of one each.
  class Cork {
  public:
    explicit Cork(StdoutWriter& writer);
    ~Cork();
    Cork(const Cork&) = delete;
    Cork& operator=(const Cork&) = delete;

  private:
    StdoutWriter& writer_;
  };
  /// Waits until everything queued so far is written, or the deadline passes. False on timeout.
  bool flush(std::chrono::milliseconds timeout);
  /// Writes what is queued (bounded by `timeout`), then stops the thread.
  void stop(std::chrono::milliseconds timeout);

private:
  /// A queued frame: one text, or pieces.
  struct Frame {
    std::string text;
    std::shared_ptr<const protocol::PiecedText> pieced;
    std::size_t size() const { return pieced ? piecedSize : text.size(); }
    std::size_t piecedSize = 0;
  };
  void queue(Frame frame);
  void run();
  enum class Wait { Yes, No };
  struct WriteEnd {
    enum class Status { Done, Full, Unsupported, Broken } status = Status::Done;
    std::size_t written = 0;
  };
  /// Writes `frames`, the first from byte `skip`; with Wait::No only what the pipe takes now.
  WriteEnd writeFrames(const std::vector<Frame>& frames, std::size_t skip, Wait wait);
  /// Whether a blocking write of `bytes` cannot block now (InlineWrites::LookFirst). With the lock held.
  bool hasRoomFor(std::size_t bytes);
  void writeQueuedOrWake(std::unique_lock<std::mutex>& lock);
  /// Writes the queued frames, with the lock released meanwhile; what is left unwritten (Wait::No)
  /// goes back to the queue's front.
  void writeQueue(std::unique_lock<std::mutex>& lock, Wait wait);
  /// Tells the backlog watcher when the backlog crosses a mark; with the lock held.
  void checkBacklog();

  int fd_;
  /// stdout is a pipe of this many bytes (0: not a pipe): its free room can be known exactly.
  std::size_t pipeCapacity_ = 0;
  /// Of that pipe, at most this many slots hold unread bytes (see hasRoomFor); a bound, not a look.
  std::size_t slotsTakenAtMost_ = 0;
  std::function<void()> onBroken_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable drained_;
  std::vector<Frame> queue_;
  std::size_t frontWritten_ = 0; ///< bytes of queue_.front() already written
  bool tryNoWait_ = true;
  std::size_t backlog_ = 0; // bytes in queue_ plus the block being written
  std::size_t highWater_ = 0;
  std::size_t lowWater_ = 0;
  std::function<void(bool)> onPressure_;
  bool pressured_ = false;
  bool writing_ = false;
  bool stopping_ = false;
  bool broken_ = false;
  int corks_ = 0;
  std::thread thread_; ///< under mutex_; started by the first frame left for it
};

} // namespace toold::daemon
