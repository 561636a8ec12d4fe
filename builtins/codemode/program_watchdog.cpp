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
    const auto now = std::chrono::steady_clock::now();
    std::optional<Reason> reason;
    if (now >= deadline_) {
      reason = Reason::kTimeout;
    } else if (maxResidentBytes_ > 0) {
      lock.unlock(); // reading /proc takes a while; arm() and disarm() need not wait for it
      const bool over = residentBytes() > maxResidentBytes_;
      lock.lock();
      if (over && armed_) reason = Reason::kResidentSize;
    }
    if (reason && armed_) {
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
    changed_.wait_until(lock, wakeAt, [&] { return stopping_ || !armed_; });
  }
}

} // namespace toold::codemode
