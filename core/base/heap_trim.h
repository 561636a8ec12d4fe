// Handing the heap pages a large file change freed back to the system once such changes pause.
// Trimming right after each change made the next one fault every page in again: a write of a
// 700 KB file over another took about 1,500 page faults (6 MiB), two thirds of its CPU time,
// when it followed another one. Deferred until the changes have paused for a moment, a run of
// them reuses the same pages, and the memory still goes back shortly after the last.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace toold::core {

class DeferredHeapTrim {
public:
  /// `trim` runs on a thread of this object's own (started at the first change) once `quiet` has
  /// passed since the last large change ended with no change in progress.
  DeferredHeapTrim(std::chrono::milliseconds quiet, std::function<void()> trim);
  /// Stops the thread; a trim still waiting is dropped.
  ~DeferredHeapTrim();
  DeferredHeapTrim(const DeferredHeapTrim&) = delete;
  DeferredHeapTrim& operator=(const DeferredHeapTrim&) = delete;

  /// A change in progress: no trim runs while one is held. Releasing one marked large asks for
  /// a trim once the changes have paused.
  class Hold {
  public:
    Hold() = default;
    explicit Hold(DeferredHeapTrim* owner) : owner_(owner) {}
    Hold(Hold&& other) noexcept : owner_(other.owner_), large_(other.large_) { other.owner_ = nullptr; }
    Hold& operator=(Hold&& other) noexcept;
    Hold(const Hold&) = delete;
    Hold& operator=(const Hold&) = delete;
    ~Hold() { release(); }
    /// The change held large blocks: the heap is worth trimming after it.
    void markLarge() { large_ = true; }
    void release();

  private:
    DeferredHeapTrim* owner_ = nullptr;
    bool large_ = false;
  };
  Hold hold();

private:
  void released(bool large);
  void run();

  const std::chrono::milliseconds quiet_;
  const std::function<void()> trim_;
  std::mutex mutex_;
  std::condition_variable wake_;
  int holds_ = 0;
  bool due_ = false; ///< a large change ended since the last trim
  std::chrono::steady_clock::time_point after_{};
  bool stopping_ = false;
  std::thread thread_;
};

/// The process's: malloc_trim(0) 50 ms after the last large change.
DeferredHeapTrim& processHeapTrim();

} // namespace toold::core
