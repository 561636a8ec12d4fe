#include "builtins/codemode/program_watchdog.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace toold::codemode {

namespace {
constexpr std::chrono::milliseconds kResidentPoll{20};
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
  {
    std::lock_guard lock(mutex_);
    deadline_ = deadline;
    maxResidentBytes_ = maxResidentBytes;
    fire_ = std::move(fire);
    armed_ = true;
    ++generation_;
  }
  changed_.notify_all();
}

void ProgramWatchdog::disarm() {
  std::unique_lock lock(mutex_);
  armed_ = false;
  changed_.notify_all();
  changed_.wait(lock, [&] { return !firing_; });
  fire_ = nullptr;
}

void ProgramWatchdog::watch() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return stopping_ || armed_; });
    if (stopping_) return;
    const std::uint64_t generation = generation_;
    const auto now = std::chrono::steady_clock::now();
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
    if (!armed_) continue;
    const auto wakeAt = maxResidentBytes_ > 0 ? std::min(deadline_, now + kResidentPoll) : deadline_;
    // A new arm() must end this wait too: a disarm() and arm() in quick succession may both come
    // before this thread wakes, and the old program's wait (120 s without a resident limit)
    // would then stand for the new one.
    changed_.wait_until(lock, wakeAt, [&] { return stopping_ || !armed_ || generation_ != generation; });
  }
}

} // namespace toold::codemode
