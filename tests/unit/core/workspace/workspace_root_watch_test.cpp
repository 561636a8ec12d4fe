// The watch on the workspace folder's name: while nothing above or at the folder moved, the
// moved-root check needs no look at the name; any move or removal ends that for good, and the
// check finds what happened by looking again.
#include "core/workspace/workspace_root_watch.h"

#include "tests/support/temp_dir.h"

#include <catch2/catch.hpp>

#include <boost/asio/io_context.hpp>

#include <chrono>
#include <fcntl.h>
#include <stdio.h>

namespace fs = std::filesystem;
using toold::core::openWorkspaceRoot;
using toold::core::watchWorkspaceRoot;
using toold::core::workspaceRootMoved;
using toold::testing::TempDir;

namespace {

/// Runs the loop until the root is no longer watched in place, or two seconds pass.
bool unwatchedSoon(boost::asio::io_context& io, const toold::core::WorkspaceRoot& root) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (root.watchedInPlace.load() && std::chrono::steady_clock::now() < until) {
    io.restart();
    io.run_for(std::chrono::milliseconds(10));
  }
  return !root.watchedInPlace.load();
}

} // namespace

TEST_CASE("workspace root watch: a root renamed away is found out, by the watch and then by the name", "[root][watch]") {
  TempDir dir("rootwatch");
  const fs::path ws = dir.path() / "a" / "ws";
  fs::create_directories(ws);
  auto root = openWorkspaceRoot(ws);
  REQUIRE(root);
  boost::asio::io_context io;
  CHECK_FALSE(root->watchedInPlace.load()); // unwatched: every check looks at the name
  auto watch = watchWorkspaceRoot(io, root);
  REQUIRE(watch);
  CHECK(root->watchedInPlace.load());
  CHECK_FALSE(workspaceRootMoved(*root));
  io.restart();
  io.run_for(std::chrono::milliseconds(20)); // nothing moved: the watch stays
  CHECK(root->watchedInPlace.load());

  fs::rename(ws, dir.path() / "a" / "elsewhere");
  REQUIRE(unwatchedSoon(io, *root));
  CHECK(workspaceRootMoved(*root));
  // Put back, the name leads to the held folder again: the check, looking, says so.
  fs::rename(dir.path() / "a" / "elsewhere", ws);
  CHECK_FALSE(workspaceRootMoved(*root));
  CHECK_FALSE(root->watchedInPlace.load()); // for good
}

TEST_CASE("workspace root watch: a folder above the root moved ends the watch", "[root][watch]") {
  TempDir dir("rootwatch");
  const fs::path ws = dir.path() / "a" / "ws";
  fs::create_directories(ws);
  auto root = openWorkspaceRoot(ws);
  REQUIRE(root);
  boost::asio::io_context io;
  auto watch = watchWorkspaceRoot(io, root);
  REQUIRE(watch);
  fs::rename(dir.path() / "a", dir.path() / "b");
  fs::create_directories(ws); // a new folder of the same name is not the one held
  REQUIRE(unwatchedSoon(io, *root));
  CHECK(workspaceRootMoved(*root));
}

TEST_CASE("workspace root watch: a root exchanged with another folder ends the watch", "[root][watch]") {
  TempDir dir("rootwatch");
  const fs::path ws = dir.path() / "ws";
  const fs::path other = dir.path() / "other";
  fs::create_directories(ws);
  fs::create_directories(other);
  auto root = openWorkspaceRoot(ws);
  REQUIRE(root);
  boost::asio::io_context io;
  auto watch = watchWorkspaceRoot(io, root);
  REQUIRE(watch);
  REQUIRE(::renameat2(AT_FDCWD, ws.c_str(), AT_FDCWD, other.c_str(), RENAME_EXCHANGE) == 0);
  REQUIRE(unwatchedSoon(io, *root));
  CHECK(workspaceRootMoved(*root));
}

TEST_CASE("workspace root watch: nothing is watched for a root whose name already leads elsewhere", "[root][watch]") {
  TempDir dir("rootwatch");
  const fs::path ws = dir.path() / "ws";
  fs::create_directories(ws);
  auto root = openWorkspaceRoot(ws);
  REQUIRE(root);
  fs::rename(ws, dir.path() / "gone");
  boost::asio::io_context io;
  CHECK_FALSE(watchWorkspaceRoot(io, root));
  CHECK_FALSE(root->watchedInPlace.load());
  CHECK(workspaceRootMoved(*root));
}

TEST_CASE("workspace root watch: dropping the watch makes the checks look at the name again", "[root][watch]") {
  TempDir dir("rootwatch");
  const fs::path ws = dir.path() / "ws";
  fs::create_directories(ws);
  auto root = openWorkspaceRoot(ws);
  REQUIRE(root);
  boost::asio::io_context io;
  auto watch = watchWorkspaceRoot(io, root);
  REQUIRE(watch);
  watch.reset();
  REQUIRE(unwatchedSoon(io, *root));
  fs::rename(ws, dir.path() / "gone");
  CHECK(workspaceRootMoved(*root));
}
