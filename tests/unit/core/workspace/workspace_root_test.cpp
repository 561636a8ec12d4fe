// The workspace root held by a descriptor: a folder exchanged with the workspace between a path's
// resolution and its hold must not become what the hold reaches.
#include "core/workspace/held_location.h"
#include "core/workspace/workspace_root.h"

#include "tests/support/temp_dir.h"

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <stdio.h>
#include <sys/stat.h>

namespace fs = std::filesystem;
using toold::core::HeldLocation;
using toold::core::holdLocation;
using toold::core::HoldPurpose;
using toold::core::Location;
using toold::core::openHeldDirectory;
using toold::core::openBeneathRoot;
using toold::core::openHeldFile;
using toold::core::openWorkspaceRoot;
using toold::core::simulateMissingOpenat2;
using toold::core::resolveToolPath;
using toold::core::UniqueFd;
using toold::testing::TempDir;

namespace {

Location heldWorkspace(const fs::path& directory) {
  Location location{directory, directory.parent_path() / "data", {}};
  location.root = openWorkspaceRoot(directory);
  REQUIRE(location.root);
  return location;
}

/// Exchanges the two folders' names in one call, as a background shell can.
void exchange(const fs::path& a, const fs::path& b) {
  REQUIRE(::renameat2(AT_FDCWD, a.c_str(), AT_FDCWD, b.c_str(), RENAME_EXCHANGE) == 0);
}

ino_t inodeOf(int fd) {
  struct stat status {};
  REQUIRE(::fstat(fd, &status) == 0);
  return status.st_ino;
}

ino_t inodeOf(const fs::path& path) {
  struct stat status {};
  REQUIRE(::stat(path.c_str(), &status) == 0);
  return status.st_ino;
}

std::string readAll(int fd) {
  std::string text(256, '\0');
  const ssize_t n = ::read(fd, text.data(), text.size());
  REQUIRE(n >= 0);
  text.resize(static_cast<std::size_t>(n));
  return text;
}

struct Swap {
  TempDir dir{"rootfd"};
  fs::path ws = dir.path() / "ws";
  fs::path outside = dir.path() / "outside";
  ino_t wsInode = 0;
  Swap() {
    fs::create_directories(ws);
    fs::create_directories(outside);
    std::ofstream(ws / "notes.txt") << "mine";
    std::ofstream(outside / "notes.txt") << "SECRET";
    wsInode = inodeOf(ws);
  }
};

} // namespace

TEST_CASE("workspace root: a root exchanged between resolving and holding is not followed to the other folder",
          "[held][root]") {
  Swap swap;
  const Location location = heldWorkspace(swap.ws);
  // The same with the walk by hand, as on a kernel without openat2: from the root, never from `/`.
  const bool withoutOpenat2 = GENERATE(false, true);
  simulateMissingOpenat2(withoutOpenat2);
  struct Restore {
    ~Restore() { simulateMissingOpenat2(false); }
  } restore;

  SECTION("reading a file") {
    const auto path = resolveToolPath("notes.txt", location);
    exchange(swap.ws, swap.outside);
    auto held = holdLocation(path, HoldPurpose::Read);
    if (auto* reached = std::get_if<HeldLocation>(&held)) {
      auto opened = openHeldFile(*reached);
      REQUIRE(std::holds_alternative<UniqueFd>(opened));
      CHECK(readAll(std::get<UniqueFd>(opened).get()) == "mine");
    }
  }
  SECTION("writing below a folder still to be created") {
    const auto path = resolveToolPath("sub/new.txt", location);
    exchange(swap.ws, swap.outside);
    std::vector<fs::path> created;
    auto held = holdLocation(path, HoldPurpose::Write, &created);
    if (auto* reached = std::get_if<HeldLocation>(&held)) {
      REQUIRE(reached->directory);
      UniqueFd file(::openat(reached->directory.get(), reached->leaf.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0644));
      CHECK(file);
      // The original folder now has the name `outside`; the other folder got nothing.
      CHECK(fs::is_regular_file(swap.outside / "sub" / "new.txt"));
      CHECK_FALSE(fs::exists(swap.ws / "sub"));
    }
  }
  SECTION("listing the workspace folder itself") {
    const auto path = resolveToolPath(".", location);
    exchange(swap.ws, swap.outside);
    auto held = holdLocation(path, HoldPurpose::Read);
    if (auto* reached = std::get_if<HeldLocation>(&held)) {
      auto opened = openHeldDirectory(*reached);
      REQUIRE(std::holds_alternative<UniqueFd>(opened));
      CHECK(inodeOf(std::get<UniqueFd>(opened).get()) == swap.wsInode);
    }
  }
  SECTION("a path resolved after the exchange is refused with the reason") {
    exchange(swap.ws, swap.outside);
    CHECK_THROWS_WITH(resolveToolPath("notes.txt", location), Catch::Contains("is no longer the folder toold was started in"));
  }
}

TEST_CASE("workspace root: opening beneath the root follows no symlink and never leaves it", "[held][root]") {
  Swap swap;
  const auto root = openWorkspaceRoot(swap.ws);
  REQUIRE(root);
  fs::create_directories(swap.ws / "a");
  std::ofstream(swap.ws / "a" / "f.txt") << "inside";
  fs::create_directory_symlink(swap.outside, swap.ws / "link");
  const bool withoutOpenat2 = GENERATE(false, true);
  simulateMissingOpenat2(withoutOpenat2);
  struct Restore {
    ~Restore() { simulateMissingOpenat2(false); }
  } restore;

  UniqueFd file(openBeneathRoot(*root, "a/f.txt", O_RDONLY | O_CLOEXEC));
  REQUIRE(file);
  CHECK(readAll(file.get()) == "inside");
  UniqueFd self(openBeneathRoot(*root, "", O_PATH | O_DIRECTORY | O_CLOEXEC));
  REQUIRE(self);
  CHECK(inodeOf(self.get()) == swap.wsInode);
  CHECK(openBeneathRoot(*root, "link/notes.txt", O_RDONLY | O_CLOEXEC) == -1);
  CHECK(openBeneathRoot(*root, "../outside/notes.txt", O_RDONLY | O_CLOEXEC) == -1);
}

TEST_CASE("workspace root: the identity the moved check compares with is the held folder's, taken once", "[held][root]") {
  Swap swap;
  const auto root = openWorkspaceRoot(swap.ws);
  REQUIRE(root);
  CHECK(root->inode == swap.wsInode);
  struct stat held {};
  REQUIRE(::fstat(root->folder.get(), &held) == 0);
  CHECK(root->device == static_cast<std::uint64_t>(held.st_dev));
  // Exchanged with another folder: the name now leads to an inode the root never had.
  exchange(swap.ws, swap.outside);
  CHECK(toold::core::workspaceRootMoved(*root));
  exchange(swap.ws, swap.outside);
  CHECK_FALSE(toold::core::workspaceRootMoved(*root));
}

TEST_CASE("workspace root: a root renamed away is refused even though its descriptor still works", "[held][root]") {
  Swap swap;
  const Location location = heldWorkspace(swap.ws);
  CHECK_FALSE(toold::core::workspaceRootMoved(*location.root));
  fs::rename(swap.ws, swap.dir.path() / "elsewhere");
  CHECK_THROWS_WITH(resolveToolPath("notes.txt", location), Catch::Contains("(it was moved, removed or replaced)"));
  fs::create_directories(swap.ws); // a new folder of the same name is not the one toold started in
  CHECK_THROWS_WITH(resolveToolPath("notes.txt", location), Catch::Contains("is no longer the folder toold was started in"));
}
