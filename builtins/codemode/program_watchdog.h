// The wall clock and the resident-size watch of a running program, on one thread that lives as
// long as its engine. A thread started and joined per program cost about a fifth of a trivial
// execute (a clone, an 8 MiB stack mapped and released, two wake-ups).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

namespace toold::codemode {

class ProgramWatchdog {
public:
  enum class Reason { kTimeout, kResidentSize };
  /// Called on the watchdog's thread, at most once per arm().
  using Fire = std::function<void(Reason)>;

  ProgramWatchdog();
  ~ProgramWatchdog();
  ProgramWatchdog(const ProgramWatchdog&) = delete;
  ProgramWatchdog& operator=(const ProgramWatchdog&) = delete;

  /// Watches until disarm(): `fire` once the deadline passes, or once the process's resident size
  /// exceeds `maxResidentBytes` (0: not watched), checked every 20 ms.
  void arm(std::chrono::steady_clock::time_point deadline, std::size_t maxResidentBytes, Fire fire);
  /// Stops watching; when it returns, `fire` is not running and will not be called.
  void disarm();

private:
  void watch();

  std::mutex mutex_;
  std::condition_variable changed_;
  void waitLocked(std::unique_lock<std::mutex>& lock, std::chrono::steady_clock::time_point until,
                  std::uint64_t generation);

  bool armed_ = false;
  bool firing_ = false;
  bool stopping_ = false;
  std::uint64_t generation_ = 0; ///< counts arm(): a wait ends when it changes
  std::chrono::steady_clock::time_point deadline_{};
  std::size_t maxResidentBytes_ = 0;
  /// When the watch thread's current wait ends (max: until notified): arm() wakes it only when it
  /// must look sooner, so a program that follows another costs no wake-up of this thread.
  std::chrono::steady_clock::time_point wakeAt_ = std::chrono::steady_clock::time_point::max();
  std::chrono::steady_clock::time_point disarmedAt_{};
  Fire fire_;
  std::thread thread_; // last: it starts once the rest exists
};

/// The process's resident size in bytes, from /proc/self/statm (0 when it cannot be read).
std::size_t residentBytes();

} // namespace toold::codemode
