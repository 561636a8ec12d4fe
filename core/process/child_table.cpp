// The child table: entering children as they are spawned, reaping them one pid at a time, and
// killing what a runner leaves behind.
#include "core/process/child_table.h"

#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <cerrno>
#include <thread>

namespace toold::core {
namespace {

/// waitpid on one pid, without blocking. __WALL so that a child whose exit signal is not SIGCHLD
/// is found too. Returns the pid when reaped, 0 while it runs, -1 when it is not (or no longer) a
/// child of this process.
pid_t reapPid(pid_t pid, int& status) {
  for (;;) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG | __WALL);
    if (done >= 0 || errno != EINTR) return done;
  }
}

} // namespace

ChildTable& ChildTable::instance() {
  static ChildTable table;
  return table;
}

ChildTable::Owner ChildTable::newOwner() {
  std::lock_guard lock(mutex_);
  return ++lastOwner_;
}

ChildTable::ChildId ChildTable::spawn(Owner owner, const std::function<pid_t()>& spawn) {
  std::lock_guard lock(mutex_);
  if (retired_.contains(owner)) return 0;
  const pid_t pid = spawn();
  if (pid <= 0) return 0;
  const ChildId id = ++lastChild_;
  children_[id] = Entry{pid, owner, false, std::nullopt};
  unreapedPids_.insert(pid);
  return id;
}

bool ChildTable::reapLocked(Entry& entry) {
  if (entry.reaped) return true;
  int status = 0;
  const pid_t done = reapPid(entry.pid, status);
  if (done == 0) return false;
  entry.reaped = true;
  if (done == entry.pid) entry.waitStatus = status;
  unreapedPids_.erase(entry.pid);
  return true;
}

std::optional<ChildTable::Reaped> ChildTable::tryReap(ChildId id) {
  std::lock_guard lock(mutex_);
  const auto found = children_.find(id);
  if (found == children_.end()) return Reaped{};
  if (!reapLocked(found->second)) return std::nullopt;
  Reaped reaped{found->second.waitStatus};
  children_.erase(found);
  return reaped;
}

bool ChildTable::hasExited(ChildId id) {
  std::lock_guard lock(mutex_);
  const auto found = children_.find(id);
  if (found == children_.end() || found->second.reaped) return true;
  siginfo_t info{};
  for (;;) {
    // WNOWAIT: the status stays for tryReap; si_pid stays 0 while the child runs.
    if (::waitid(P_PID, static_cast<id_t>(found->second.pid), &info, WEXITED | WNOHANG | WNOWAIT | __WALL) == 0)
      return info.si_pid != 0;
    if (errno != EINTR) return true; // ECHILD: not ours to wait for any more, so nothing runs
  }
}

void ChildTable::signalGroup(ChildId id, int signal) {
  std::lock_guard lock(mutex_);
  const auto found = children_.find(id);
  if (found != children_.end() && !found->second.reaped) ::kill(-found->second.pid, signal);
}

std::size_t ChildTable::killAll(Owner owner, std::chrono::milliseconds patience) {
  std::lock_guard lock(mutex_);
  std::vector<ChildId> ids;
  for (const auto& [id, entry] : children_)
    if (entry.owner == owner && !entry.reaped) ids.push_back(id);
  killAndReapLocked(ids, patience);
  return ids.size();
}

void ChildTable::retire(Owner owner, std::chrono::milliseconds patience) {
  {
    std::lock_guard lock(mutex_);
    retired_.insert(owner);
  }
  killAll(owner, patience);
}

void ChildTable::release(ChildId id, std::chrono::milliseconds patience) {
  std::lock_guard lock(mutex_);
  const auto found = children_.find(id);
  if (found == children_.end()) return;
  killAndReapLocked({id}, patience);
  // Still unreaped after `patience`: it is left to the orphan reaper, if one runs.
  unreapedPids_.erase(found->second.pid);
  children_.erase(found);
}

std::size_t ChildTable::liveCount(Owner owner) const {
  std::lock_guard lock(mutex_);
  return static_cast<std::size_t>(std::count_if(children_.begin(), children_.end(), [owner](const auto& item) {
    return item.second.owner == owner && !item.second.reaped;
  }));
}

std::size_t ChildTable::reapUnowned(std::span<const pid_t> candidates) {
  std::lock_guard lock(mutex_);
  std::size_t reaped = 0;
  for (const pid_t pid : candidates) {
    if (pid <= 0 || unreapedPids_.contains(pid)) continue;
    int status = 0;
    if (reapPid(pid, status) == pid) ++reaped;
  }
  return reaped;
}

void ChildTable::killAndReapLocked(const std::vector<ChildId>& ids, std::chrono::milliseconds patience) {
  std::vector<Entry*> waiting;
  for (const ChildId id : ids) {
    const auto found = children_.find(id);
    if (found == children_.end() || found->second.reaped) continue;
    ::kill(-found->second.pid, SIGKILL);
    waiting.push_back(&found->second);
  }
  // waitpid cannot wait with a timeout: poll, with pauses that grow from very short, since a
  // SIGKILLed process is normally gone within microseconds.
  const auto deadline = std::chrono::steady_clock::now() + patience;
  std::chrono::microseconds pause(100);
  for (;;) {
    std::erase_if(waiting, [this](Entry* entry) { return reapLocked(*entry); });
    const auto now = std::chrono::steady_clock::now();
    if (waiting.empty() || now >= deadline) return;
    std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(pause, deadline - now));
    pause = std::min(pause * 2, std::chrono::microseconds(10'000));
  }
}

} // namespace toold::core
