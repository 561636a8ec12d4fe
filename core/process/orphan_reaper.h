// Reaping orphans. When toold is PID 1 (in a container) or a child subreaper, every orphaned
// descendant — a server a command started with `&` and abandoned, a daemon that double-forked —
// is re-parented to toold, and each one that exits stays a zombie until toold waits for it.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <memory>
#include <vector>

#include <boost/asio/io_context.hpp>

namespace toold::core {

/// Reaps, periodically, every exited child of toold that no ProcessRunner owns, one pid at a time
/// (never waitpid(-1), which would take a runner's statuses). Any other code in toold that starts
/// a child and waits for it itself would lose that child's status to it: while a reaper runs,
/// children are started through a ProcessRunner.
///
/// Periodic rather than on SIGCHLD: a handler for SIGCHLD would interrupt blocking system calls on
/// every thread at each child's exit, and the runner's own children do not need it (pidfds).
class OrphanReaper {
public:
  /// Whether toold inherits orphans at all: it is PID 1, or a child subreaper.
  static bool needed();

  /// The children of this process (all its threads' children), from /proc.
  static std::vector<pid_t> listChildren();

  /// Reaps, now, every exited child that no runner owns; returns how many.
  static std::size_t reapNow();

  /// Calls reapNow every `interval` on `io` until destroyed.
  explicit OrphanReaper(boost::asio::io_context& io, std::chrono::milliseconds interval = std::chrono::seconds(1));
  ~OrphanReaper();
  OrphanReaper(const OrphanReaper&) = delete;
  OrphanReaper& operator=(const OrphanReaper&) = delete;

private:
  struct State;
  std::shared_ptr<State> state_;
};

} // namespace toold::core
