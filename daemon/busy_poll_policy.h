// When the stdin reader watches stdin before it sleeps (StdinReader's busy poll). Watching pays
// only when the client's next frame comes while it lasts: then the frame is read without the
// reader's wake-up. A frame that comes after the watch costs the wake-up anyway, and the watch
// itself was CPU spent for nothing — up to the whole watch per request for a client that answers
// in a little more than it (a script parsing a 10 KB answer, on a busy machine).
//
// So the reader watches while the watch catches most frames: each miss counts one up, each catch
// one down, and at kMissesBeforeRest (a client the watch catches less than half the time), or
// after a wait far longer than the watch (a person, a model), it rests: it sleeps at once, and watches again when a wait was shorter than the watch even with
// the wake-up in it, or as a probe every kProbeEvery waits, which tells when the client became
// fast again.
#pragma once

#include <chrono>
#include <cstdint>

namespace toold::daemon {

class BusyPollPolicy {
public:
  static constexpr int kMissesBeforeRest = 8;
  static constexpr int kProbeEvery = 16;
  static constexpr int kProbeTries = 2;
  /// A wait longer than this many watches stops the watching at once.
  static constexpr int kFarBeyond = 4;

  explicit BusyPollPolicy(std::chrono::microseconds watch) : watch_(watch) {}

  /// Whether the next wait is watched for.
  bool watchNext() const { return watch_.count() > 0 && watching_; }

  /// The wait that watchNext() decided ended after `waited`; `caught`: the watch saw the frame.
  void waited(bool watched, bool caught, std::chrono::steady_clock::duration waited) {
    if (watched && caught) {
      if (misses_ > 0) --misses_;
      return;
    }
    if (watched) {
      if (waited > kFarBeyond * watch_ || ++misses_ >= kMissesBeforeRest) rest();
      return;
    }
    if (++sinceProbe_ >= kProbeEvery) {
      watching_ = true;
      misses_ = kMissesBeforeRest - kProbeTries;
    }
  }

private:
  void rest() {
    watching_ = false;
    sinceProbe_ = 0;
  }

  std::chrono::microseconds watch_;
  bool watching_ = true;
  int misses_ = 0;
  int sinceProbe_ = 0;
};

} // namespace toold::daemon
