// The stdin reader: blocking reads of stdin, split into frames, handed on in batches, on toold's
// main thread. A thread of its own rather than an Asio descriptor because stdin may be a regular
// file or /dev/null, which epoll refuses, and because it must keep reading while every loop
// thread is busy.
#pragma once

#include "protocol/framing.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <vector>

namespace toold::daemon {

class StdinReader {
public:
  using FramesHandler = std::function<void(std::vector<protocol::DecodedFrame>&&)>;
  using EndHandler = std::function<void(int error)>; ///< 0 at end of input, else errno

  /// Handlers run on the thread in run(). After each read it busy-polls stdin for up to
  /// `busyPoll` before it sleeps (zero: never), while that catches the client's frames
  /// (daemon/busy_poll_policy.h).
  StdinReader(int fd, protocol::Framing framing, std::size_t maxFrameBytes, std::chrono::microseconds busyPoll,
              FramesHandler onFrames, EndHandler onEnd);
  ~StdinReader();
  StdinReader(const StdinReader&) = delete;
  StdinReader& operator=(const StdinReader&) = delete;

  /// Reads on the calling thread until the end of input, a read error or stop(); the handlers run
  /// on it. toold's main thread runs it: that thread has nothing else to do, and a thread of its
  /// own cost every start its creation and a malloc arena of its own, whose first pages the first
  /// request faults in. Separate from construction so that everything the handlers reach
  /// (including this object's owner pointer) is in place before the first frame arrives.
  void run();
  /// The framing detected from the first bytes (Auto until then). Replies use the same framing.
  protocol::Framing framing() const { return framing_.load(std::memory_order_acquire); }

  /// Called once a handed-on frame has been dispatched. The reader pauses while too many frames
  /// wait for the loop, so a client that floods toold cannot make it buffer without limit.
  void framesConsumed(std::size_t count);

  /// While the answers waiting for stdout are over their limit, the reader reads nothing more:
  /// a client that stops reading its answers cannot make toold buffer them without limit. Frames
  /// already read are still handed on, in slices, and a slice waits for the output to drain.
  void setOutputBlocked(bool blocked);

  /// Makes run() return soon, interrupting a blocked read; from any thread, a handler's included.
  /// Frames read and not yet handed on are dropped, and the end handler is not called.
  void stop();

private:
  void waitForRoom();

  int fd_;
  std::chrono::microseconds busyPoll_;
  int wakeFds_[2] = {-1, -1};
  protocol::FrameDecoder decoder_;
  std::atomic<protocol::Framing> framing_;
  FramesHandler onFrames_;
  EndHandler onEnd_;
  std::atomic<bool> stopping_{false};
  std::mutex mutex_;
  std::condition_variable roomAvailable_;
  std::size_t framesInQueue_ = 0;
  bool outputBlocked_ = false;
};

} // namespace toold::daemon
