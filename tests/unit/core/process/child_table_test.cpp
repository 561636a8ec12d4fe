// The child table's exit check: it says whether a child has exited without taking its status.
#include "core/process/child_table.h"

#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

namespace {

using toold::core::ChildTable;

/// A child leading its own process group, which runs until its pipe's write end closes, then exits with status 7.
struct PipeChild {
  ChildTable::ChildId id = 0;
  int release = -1; ///< closing this lets the child exit
};

PipeChild startPipeChild(ChildTable::Owner owner) {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  PipeChild child;
  child.id = ChildTable::instance().spawn(owner, [&]() -> pid_t {
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::setpgid(0, 0); // a group of its own, as toold's children have
      ::close(fds[1]);
      char byte;
      while (::read(fds[0], &byte, 1) > 0) {
      }
      ::_exit(7);
    }
    if (pid > 0) ::setpgid(pid, pid); // set by both, so that it holds before either goes on
    return pid;
  });
  ::close(fds[0]);
  child.release = fds[1];
  REQUIRE(child.id != 0);
  return child;
}

/// Asks until the table says the child has exited; false if it never does within 10 s.
bool seenExited(ChildTable::ChildId id) {
  for (int i = 0; i < 10'000; ++i) {
    if (ChildTable::instance().hasExited(id)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return false;
}

} // namespace

TEST_CASE("hasExited is false while a child runs, true once it exited, and keeps its status", "[process]") {
  const auto owner = ChildTable::instance().newOwner();
  PipeChild child = startPipeChild(owner);
  CHECK_FALSE(ChildTable::instance().hasExited(child.id));
  CHECK_FALSE(ChildTable::instance().tryReap(child.id).has_value()); // still running: nothing to reap
  CHECK_FALSE(ChildTable::instance().hasExited(child.id));

  ::close(child.release);
  REQUIRE(seenExited(child.id));
  CHECK(ChildTable::instance().hasExited(child.id)); // asking again takes nothing either
  // The status is still there for the one who reaps it.
  const auto reaped = ChildTable::instance().tryReap(child.id);
  REQUIRE(reaped);
  REQUIRE(reaped->waitStatus);
  CHECK(WIFEXITED(*reaped->waitStatus));
  CHECK(WEXITSTATUS(*reaped->waitStatus) == 7);
  // Forgotten once reaped: nothing runs under that id.
  CHECK(ChildTable::instance().hasExited(child.id));
}

TEST_CASE("hasExited of a child killed by the table is true and its status says so", "[process]") {
  const auto owner = ChildTable::instance().newOwner();
  PipeChild child = startPipeChild(owner);
  CHECK(ChildTable::instance().killAll(owner, std::chrono::seconds(2)) == 1);
  CHECK(ChildTable::instance().hasExited(child.id));
  const auto reaped = ChildTable::instance().tryReap(child.id);
  REQUIRE(reaped);
  REQUIRE(reaped->waitStatus);
  CHECK(WIFSIGNALED(*reaped->waitStatus));
  ::close(child.release);
}
