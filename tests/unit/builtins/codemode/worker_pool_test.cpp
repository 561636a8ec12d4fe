// The Code Mode worker pool's shutdown: every worker stops, and nothing a listener held outlives it.
#include "builtins/codemode/worker_pool.h"

#include "tests/support/temp_dir.h"

#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <string>
#include <thread>

using namespace toold::codemode;
using namespace std::chrono_literals;

namespace {

// A stand-in worker: one message once it is sent a line, then it waits to be killed (the pool's
// flags are ignored).
class ScriptWorker {
public:
  ScriptWorker() : dir_("worker_pool") {
    std::ofstream(path()) << "#!/bin/sh\nread line\nprintf '{\"type\":\"hello\"}\\n'\nexec sleep 60\n";
    ::chmod(path().c_str(), 0700);
  }
  std::string path() const { return (dir_.path() / "worker.sh").string(); }

private:
  toold::testing::TempDir dir_;
};

// Exited: no such process, or a zombie nobody has reaped yet.
bool exited(int pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return true;
  const auto close = line.rfind(')');
  return close != std::string::npos && close + 2 < line.size() && line[close + 2] == 'Z';
}

// What a listener keeps alive (a program's run, in toold, which holds its worker too); says when
// it is gone.
struct Held {
  Held(std::atomic<bool>& goneFlag, std::shared_ptr<WorkerProcess> held) : gone(goneFlag), worker(std::move(held)) {}
  ~Held() { gone = true; }
  Held(const Held&) = delete;
  Held& operator=(const Held&) = delete;
  std::atomic<bool>& gone;
  std::shared_ptr<WorkerProcess> worker;
};

} // namespace

TEST_CASE("worker pool shutdown: returns only once a reader has let go of its listener", "[codemode]") {
  ScriptWorker script;
  WorkerPool pool(script.path(), WorkerSettings{});
  std::atomic<bool> delivering{false}, gone{false};
  {
    auto worker = pool.acquire();
    auto held = std::make_shared<Held>(gone, worker);
    worker->listen({[held, &delivering](nlohmann::json) {
                      delivering = true;
                      // The message is still being handled when toold exits.
                      std::this_thread::sleep_for(300ms);
                    },
                    nullptr});
    held.reset();
    REQUIRE(worker->sendLine("go\n"));
    const auto start = std::chrono::steady_clock::now();
    while (!delivering && std::chrono::steady_clock::now() - start < 10s) std::this_thread::sleep_for(1ms);
    REQUIRE(delivering);
    // As a run does when its program ends on that message: the listener goes, the worker returns.
    pool.release(worker);
  }
  pool.shutdown();
  // The reader thread's copy of the listener was the last owner; shutdown waited for it.
  CHECK(gone);
  CHECK_THROWS_AS(pool.acquire(), std::runtime_error);
}

TEST_CASE("worker pool shutdown: kills the workers running programs and the idle ones", "[codemode]") {
  ScriptWorker script;
  WorkerPool pool(script.path(), WorkerSettings{});
  pool.prestart();
  auto busy = pool.acquire();
  auto idle = pool.acquire();
  REQUIRE(busy != idle);
  pool.release(idle);
  const int busyPid = busy->pid();
  const int idlePid = idle->pid();
  idle.reset();
  pool.shutdown();
  CHECK_FALSE(busy->alive());
  CHECK(exited(busyPid));
  CHECK(exited(idlePid));
  // A worker given back after shutdown is killed, not kept.
  pool.release(busy);
  CHECK_FALSE(pool.acquireIdle());
}

TEST_CASE("worker pool: a missing worker executable is named plainly", "[codemode]") {
  toold::testing::TempDir dir("worker_pool_missing");
  const std::string missing = (dir.path() / "toold-codemode").string();
  WorkerPool pool(missing, WorkerSettings{});
  try {
    pool.acquire();
    FAIL("a worker started from a file that does not exist");
  } catch (const std::runtime_error& e) {
    const std::string message = e.what();
    CHECK(message.find("the Code Mode worker toold-codemode is missing beside toold") != std::string::npos);
    CHECK(message.find(missing) != std::string::npos);
  }
}
