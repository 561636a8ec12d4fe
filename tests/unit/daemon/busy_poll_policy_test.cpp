#include "daemon/busy_poll_policy.h"

#include <catch2/catch.hpp>

using toold::daemon::BusyPollPolicy;
using namespace std::chrono_literals;

namespace {

// One wait as the reader makes it: watched when the policy says so, the frame coming after `gap`
// (caught when it came within the watch of 50 us).
void wait(BusyPollPolicy& policy, std::chrono::microseconds gap) {
  const bool watched = policy.watchNext();
  policy.waited(watched, watched && gap <= 50us, gap);
}

} // namespace

TEST_CASE("busy poll: a client answering within the watch is always watched for", "[busy-poll]") {
  BusyPollPolicy policy(50us);
  for (int i = 0; i < 100; ++i) {
    CHECK(policy.watchNext());
    wait(policy, 10us);
  }
}

TEST_CASE("busy poll: a client answering just after the watch stops being watched for", "[busy-poll]") {
  // A script that takes 60-150 us to send its next request: every watch missed it, and each cost
  // the whole watch in CPU.
  BusyPollPolicy policy(50us);
  int watched = 0;
  for (int i = 0; i < 160; ++i) {
    watched += policy.watchNext() ? 1 : 0;
    wait(policy, 80us);
  }
  // The first misses, then a probe every kProbeEvery waits.
  CHECK(watched <= BusyPollPolicy::kMissesBeforeRest + 160 / BusyPollPolicy::kProbeEvery * BusyPollPolicy::kProbeTries);
}

TEST_CASE("busy poll: a client the watch catches only now and then is not watched for", "[busy-poll]") {
  // One frame in three within the watch: each catch saves a wake-up, each miss costs the whole
  // watch, twice as often.
  BusyPollPolicy policy(50us);
  int watched = 0;
  for (int i = 0; i < 300; ++i) {
    watched += policy.watchNext() ? 1 : 0;
    wait(policy, i % 3 == 0 ? 10us : 80us);
  }
  CHECK(watched < 300 / 2); // the fixed rule watched every one of them
}

TEST_CASE("busy poll: a client the watch catches most of the time stays watched for", "[busy-poll]") {
  BusyPollPolicy policy(50us);
  for (int i = 0; i < 300; ++i) {
    CHECK(policy.watchNext());
    wait(policy, i % 3 == 0 ? 80us : 10us);
  }
}

TEST_CASE("busy poll: a wait far beyond the watch rests at once, and a probe comes back to a fast client", "[busy-poll]") {
  BusyPollPolicy policy(50us);
  wait(policy, 10ms); // a person typing
  CHECK_FALSE(policy.watchNext());
  int waits = 0;
  for (; !policy.watchNext() && waits < 100; ++waits) wait(policy, 30us);
  CHECK(waits == BusyPollPolicy::kProbeEvery);
  for (int i = 0; i < 20; ++i) {
    CHECK(policy.watchNext());
    wait(policy, 10us);
  }
}

TEST_CASE("busy poll: a probe finds a client that became fast again", "[busy-poll]") {
  BusyPollPolicy policy(50us);
  for (int i = 0; i < BusyPollPolicy::kMissesBeforeRest; ++i) wait(policy, 100us);
  CHECK_FALSE(policy.watchNext());
  // The client is fast now, but each sleep's wake-up makes its waits look longer than the watch:
  // only a probe can see it.
  int waits = 0;
  while (!policy.watchNext() && waits < 100) {
    policy.waited(false, false, 70us);
    ++waits;
  }
  CHECK(waits == BusyPollPolicy::kProbeEvery);
  wait(policy, 10us); // the probe catches it
  for (int i = 0; i < 3 * BusyPollPolicy::kMissesBeforeRest; ++i) {
    CHECK(policy.watchNext());
    wait(policy, 10us);
  }
}

TEST_CASE("busy poll: a watch of zero never watches", "[busy-poll]") {
  BusyPollPolicy policy(0us);
  CHECK_FALSE(policy.watchNext());
  policy.waited(false, false, 0us);
  CHECK_FALSE(policy.watchNext());
}
