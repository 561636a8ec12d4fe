// The process-wide table of the children ProcessRunners started, and the only place toold waits
// for a child. Every wait names one pid (never -1, which would steal other code's statuses)
// and happens under one lock, so that
//  - the orphan reaper never takes the status of a child a runner is about to collect: a child is
//    entered while it is spawned, under the lock the reaper takes too;
//  - a pid is never signalled or waited for after it was reaped, when it may already belong to
//    another process (entries are named by an id of their own for that reason, not by pid);
//  - killAll, which may run on any thread while the io_context is stopped, can kill and reap
//    children and still hand each status to the runner that collects it later.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <span>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace toold::core {

class ChildTable {
public:
  /// Who started a child: one per ProcessRunner, never reused (an address could be).
  using Owner = std::uint64_t;
  /// One spawned child; never reused, unlike its pid. 0 names none.
  using ChildId = std::uint64_t;

  /// The one table of this process.
  static ChildTable& instance();

  Owner newOwner();

  /// Runs `spawn` under the table's lock and, when it returns a pid > 0, enters that child for
  /// `owner`. Returns 0 — without calling `spawn` once `owner` is retired, so that no child
  /// starts after its runner killed the last ones. `spawn` must not call back into the table.
  ChildId spawn(Owner owner, const std::function<pid_t()>& spawn);

  /// What reaping a child found: the raw wait status, or nothing when a wait outside toold's
  /// control took it first (SIGCHLD ignored, someone's waitpid(-1)).
  struct Reaped {
    std::optional<int> waitStatus;
  };
  /// Reaps the child if it has exited (or returns what killAll kept for it) and forgets it;
  /// nothing while it still runs.
  std::optional<Reaped> tryReap(ChildId id);

  /// Whether the child has exited (or was reaped already), asked of the kernel without reaping it:
  /// a readiness report of its pidfd is taken as an exit only once this confirms it.
  bool hasExited(ChildId id);

  /// kill(-pid, signal): the child leads its own process group, and the group id cannot be
  /// reused while the leader is unreaped, so the signal is sent only until then.
  void signalGroup(ChildId id, int signal);

  /// SIGKILL to the group of every child of `owner` not yet reaped, then reaps those leaders,
  /// waiting at most `patience` (a process in uninterruptible sleep dies only when it wakes). The
  /// statuses are kept for tryReap. Returns how many groups were signalled.
  std::size_t killAll(Owner owner, std::chrono::milliseconds patience);
  /// killAll, and `owner` may spawn no more.
  void retire(Owner owner, std::chrono::milliseconds patience);

  /// For a child nobody will collect any more: kills its group and reaps it if needed, and
  /// forgets it.
  void release(ChildId id, std::chrono::milliseconds patience);

  /// Children of `owner` not reaped yet.
  std::size_t liveCount(Owner owner) const;

  /// Reaps those of `candidates` (children of this process) that are not an unreaped entry and
  /// have exited; returns how many.
  std::size_t reapUnowned(std::span<const pid_t> candidates);

private:
  struct Entry {
    pid_t pid = -1;
    Owner owner = 0;
    bool reaped = false;
    std::optional<int> waitStatus;
  };

  /// Kills the group of each unreaped entry in `ids` and reaps them, within `patience`.
  /// Requires the lock.
  void killAndReapLocked(const std::vector<ChildId>& ids, std::chrono::milliseconds patience);
  /// Reaps the entry's pid if it has exited; false while it runs. Requires the lock.
  bool reapLocked(Entry& entry);

  mutable std::mutex mutex_;
  std::unordered_map<ChildId, Entry> children_;
  std::unordered_set<pid_t> unreapedPids_; ///< the pids of entries not reaped yet
  std::unordered_set<Owner> retired_;
  Owner lastOwner_ = 0;
  ChildId lastChild_ = 0;
};

} // namespace toold::core
