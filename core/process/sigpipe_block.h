// Writing to a pipe nobody reads raises SIGPIPE, and pipes have no MSG_NOSIGNAL. SigpipeBlock
// keeps such a write from killing the process when SIGPIPE is not ignored: the signal is blocked
// in this thread around the write, and the one the write raised is taken before it is unblocked.
// Header-only, so that the clients' child-process helper can use it without linking core.
#pragma once

#include <cerrno>
#include <csignal>
#include <ctime>
#include <pthread.h>

namespace toold::core {

/// Whether SIGPIPE is ignored in this process (toold ignores it): then a write needs no block.
inline bool sigpipeIgnoredNow() {
  struct sigaction current {};
  ::sigaction(SIGPIPE, nullptr, &current);
  return (current.sa_flags & SA_SIGINFO) == 0 && current.sa_handler == SIG_IGN;
}

class SigpipeBlock {
public:
  /// `needed` false (SIGPIPE is ignored anyway) makes it do nothing.
  explicit SigpipeBlock(bool needed = true) : active_(needed) {
    if (!active_) return;
    sigemptyset(&sigpipe_);
    sigaddset(&sigpipe_, SIGPIPE);
    ::pthread_sigmask(SIG_BLOCK, &sigpipe_, &previous_);
    // Only a caller that blocks SIGPIPE itself can have one pending already: that one is theirs.
    if (sigismember(&previous_, SIGPIPE) == 1) {
      sigset_t pending;
      ::sigpending(&pending);
      pendingBefore_ = sigismember(&pending, SIGPIPE) == 1;
    }
  }
  ~SigpipeBlock() {
    if (active_) ::pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
  }
  SigpipeBlock(const SigpipeBlock&) = delete;
  SigpipeBlock& operator=(const SigpipeBlock&) = delete;

  /// After EPIPE: takes the SIGPIPE that write raised (none if SIGPIPE is ignored).
  void consume() {
    if (!active_ || pendingBefore_) return;
    const timespec now{};
    while (::sigtimedwait(&sigpipe_, nullptr, &now) < 0 && errno == EINTR) {
    }
  }

private:
  bool active_;
  bool pendingBefore_ = false;
  sigset_t sigpipe_{};
  sigset_t previous_{};
};

} // namespace toold::core
