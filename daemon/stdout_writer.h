// The one owner of stdout: frames are queued from any thread and written in order by one thread,
// so no loop thread ever blocks on a full pipe.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace toold::daemon {

class StdoutWriter {
public:
  /// `onBroken` runs once, on the writer thread, when the output can no longer be written (EPIPE).
  StdoutWriter(int fd, std::function<void()> onBroken);
  ~StdoutWriter();
  StdoutWriter(const StdoutWriter&) = delete;
  StdoutWriter& operator=(const StdoutWriter&) = delete;

  /// Queues one encoded frame. Thread-safe; frames are written in the order send() was called.
  void send(std::string frame);
  /// Waits until everything queued so far is written, or the deadline passes. False on timeout.
  bool flush(std::chrono::milliseconds timeout);
  /// Writes what is queued (bounded by `timeout`), then stops the thread.
  void stop(std::chrono::milliseconds timeout);

private:
  void run();
  bool writeAll(const std::string& bytes);

  int fd_;
  std::function<void()> onBroken_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable drained_;
  std::vector<std::string> queue_;
  bool writing_ = false;
  bool stopping_ = false;
  bool broken_ = false;
  std::thread thread_;
};

} // namespace toold::daemon
