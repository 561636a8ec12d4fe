// The orphan reaper: orphans re-parented to a subreaper are reaped, a runner's children never are.
#include "core/process/orphan_reaper.h"

#include "core/process/process_runner.h"
#include "tests/unit/core/process/runner_test_support.h"

#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <fstream>
#include <future>
#include <iterator>
#include <optional>
#include <string>
#include <thread>


namespace {

using namespace std::chrono_literals;
using ReaperClock = std::chrono::steady_clock;

/// The test process as a child subreaper, as toold would be in a container, for one test.
class Subreaper {
public:
  Subreaper() { ::prctl(PR_SET_CHILD_SUBREAPER, 1); }
  ~Subreaper() { ::prctl(PR_SET_CHILD_SUBREAPER, 0); }
  Subreaper(const Subreaper&) = delete;
  Subreaper& operator=(const Subreaper&) = delete;
};

/// The state letter and the parent in /proc/PID/stat; nothing once the process is gone.
struct ProcStat {
  char state;
  pid_t parent;
};
std::optional<ProcStat> procStat(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  const std::string stat{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const auto close = stat.rfind(')');
  if (close == std::string::npos || close + 4 >= stat.size()) return std::nullopt;
  pid_t parent = 0;
  std::from_chars(stat.data() + close + 4, stat.data() + stat.size(), parent);
  return ProcStat{stat[close + 2], parent};
}

template <typename Condition>
bool within(Condition condition, ReaperClock::duration limit) {
  const auto deadline = ReaperClock::now() + limit;
  while (!condition()) {
    if (ReaperClock::now() >= deadline) return false;
    std::this_thread::sleep_for(10ms);
  }
  return true;
}

/// Runs a script through `runner` whose background subshell outlives it: the runner kills the
/// subshell with the group, and it is left a zombie child of this (subreaper) process. Returns
/// its pid once it is.
pid_t makeOrphanZombie(toold::core::ProcessRunner& runner) {
  // Shared with the callbacks, which may outlive a failed test.
  auto done = std::make_shared<std::promise<void>>();
  auto output = std::make_shared<std::string>();
  runner.start(
      {.argv = {"/bin/sh", "-c", "(sleep 30; exit 3) & echo $!"}}, {},
      [output](toold::core::OutputStream, std::string_view bytes) { output->append(bytes); },
      [done](toold::core::ProcessOutcome) { done->set_value(); });
  REQUIRE(done->get_future().wait_for(10s) == std::future_status::ready);
  pid_t orphan = 0;
  REQUIRE(std::from_chars(output->data(), output->data() + output->size(), orphan).ec == std::errc());
  REQUIRE(within(
      [&] {
        const auto stat = procStat(orphan);
        return stat && stat->state == 'Z' && stat->parent == ::getpid();
      },
      5s));
  return orphan;
}

} // namespace

TEST_CASE("orphans re-parented to a subreaper are reaped", "[process]") {
  const Subreaper subreaper;
  CHECK(toold::core::OrphanReaper::needed());
  toold::core::testing::Loop loop;
  toold::core::ProcessRunner runner(loop.io);

  const pid_t orphan = makeOrphanZombie(runner);
  const auto children = toold::core::OrphanReaper::listChildren();
  CHECK(std::find(children.begin(), children.end(), orphan) != children.end());
  CHECK(toold::core::OrphanReaper::reapNow() >= 1);
  CHECK(::kill(orphan, 0) != 0);
  CHECK(errno == ESRCH);

  SECTION("periodically, once a reaper runs") {
    const pid_t another = makeOrphanZombie(runner);
    const toold::core::OrphanReaper reaper(loop.io, 20ms);
    CHECK(within([&] { return ::kill(another, 0) != 0 && errno == ESRCH; }, 5s));
  }
}

TEST_CASE("the orphan reaper never takes the status of a runner's child", "[process]") {
  toold::core::testing::Loop loop;
  toold::core::ProcessRunner runner(loop.io);
  std::atomic<bool> stop{false};
  std::thread reaping([&] {
    while (!stop.load()) toold::core::OrphanReaper::reapNow();
  });
  std::size_t right = 0;
  constexpr int runs = 30;
  for (int i = 0; i < runs; ++i) {
    auto done = std::make_shared<std::promise<toold::core::ProcessOutcome>>();
    runner.start({.argv = {"/bin/sh", "-c", "exit 7"}}, {}, [](toold::core::OutputStream, std::string_view) {},
                 [done](toold::core::ProcessOutcome outcome) { done->set_value(std::move(outcome)); });
    auto future = done->get_future();
    if (future.wait_for(10s) != std::future_status::ready) break;
    const auto outcome = future.get();
    if (outcome.status == toold::core::ExitStatus::exited(7)) ++right;
  }
  stop.store(true);
  reaping.join();
  CHECK(right == runs);
}
