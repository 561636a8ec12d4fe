#include "builtins/codemode/program_watchdog.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace toold::codemode {

namespace {
constexpr std::chrono::milliseconds kResidentPoll{20};
// How long the thread keeps polling after a program ends. A model's next program usually comes
// within it, and its arm() then needs no wake-up: waking this thread took a trivial program's
// CPU for about 0.1 ms (on a 2-CPU machine it ran first, reading /proc, on the engine's CPU).
constexpr std::chrono::seconds kLinger{2};
}

std::size_t residentBytes() {
  std::FILE* file = std::fopen("/proc/self/statm", "r");
  if (file == nullptr) return 0;
  unsigned long size = 0, resident = 0;
  const int read = std::fscanf(file, "%lu %lu", &size, &resident);
  std::fclose(file);
  return read == 2 ? static_cast<std::size_t>(resident) * static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)) : 0;
}

ProgramWatchdog::ProgramWatchdog() : thread_([this] { watch(); }) {}

ProgramWatchdog::~ProgramWatchdog() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void ProgramWatchdog::arm(std::chrono::steady_clock::time_point deadline, std::size_t maxResidentBytes, Fire fire) {
  bool wake = false;
  {
    std::lock_guard lock(mutex_);
    deadline_ = deadline;
    maxResidentBytes_ = maxResidentBytes;
    fire_ = std::move(fire);
    armed_ = true;
    ++generation_;
    const auto firstLook = maxResidentBytes > 0 ? std::min(deadline, std::chrono::steady_clock::now() + kResidentPoll) : deadline;
    wake = firstLook < wakeAt_;
  }
  if (wake) changed_.notify_all();
}

void ProgramWatchdog::disarm() {
  std::unique_lock lock(mutex_);
  armed_ = false;
  disarmedAt_ = std::chrono::steady_clock::now();
  // The thread is not woken: it finds the watch disarmed when its wait ends.
  changed_.wait(lock, [&] { return !firing_; });
  fire_ = nullptr;
}

void ProgramWatchdog::waitLocked(std::unique_lock<std::mutex>& lock, std::chrono::steady_clock::time_point until,
                                 std::uint64_t generation) {
  wakeAt_ = until;
  // A new arm() that needs an earlier look ends the wait (it notifies only then).
  changed_.wait_until(lock, until, [&] { return stopping_ || generation_ != generation; });
  wakeAt_ = std::chrono::steady_clock::time_point::max();
}

void ProgramWatchdog::watch() {
  std::unique_lock lock(mutex_);
  for (;;) {
    if (stopping_) return;
    const std::uint64_t generation = generation_;
    const auto now = std::chrono::steady_clock::now();
    if (!armed_) {
      if (now - disarmedAt_ < kLinger) {
        waitLocked(lock, now + kResidentPoll, generation);
      } else {
        // wakeAt_ is max: the next arm() notifies.
        changed_.wait(lock, [&] { return stopping_ || armed_; });
      }
      continue;
    }
    std::optional<Reason> reason;
    if (now >= deadline_) {
      reason = Reason::kTimeout;
    } else if (const std::size_t limit = maxResidentBytes_; limit > 0) {
      lock.unlock(); // reading /proc takes a while; arm() and disarm() need not wait for it
      const bool over = residentBytes() > limit;
      lock.lock();
      if (over && armed_ && generation_ == generation) reason = Reason::kResidentSize;
    }
    if (reason && armed_ && generation_ == generation) {
      armed_ = false; // once per arm()
      firing_ = true;
      Fire fire = fire_;
      lock.unlock();
      fire(*reason);
      lock.lock();
      firing_ = false;
      changed_.notify_all();
      continue;
    }
    if (!armed_ || generation_ != generation) continue;
    waitLocked(lock, maxResidentBytes_ > 0 ? std::min(deadline_, now + kResidentPoll) : deadline_, generation);
  }
}

} // namespace toold::codemode
