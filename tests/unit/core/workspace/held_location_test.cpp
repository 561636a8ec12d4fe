#include "core/workspace/held_location.h"

#include "tests/support/temp_dir.h"

#include <catch2/catch.hpp>

#include <fstream>
#include <fcntl.h>
#include <sys/stat.h>

namespace fs = std::filesystem;
using toold::core::HeldLocation;
using toold::core::holdLocation;
using toold::core::holdResolvedFolder;
using toold::core::Location;
using toold::core::ResolvedFolder;
using toold::core::resolveToolPath;
using toold::core::HoldPurpose;
using toold::core::openHeldFile;
using toold::core::ResolvedPath;
using toold::core::UniqueFd;
using toold::testing::TempDir;

namespace {

ResolvedPath resolved(const fs::path& canonical, bool inToolOutput = false) {
  ResolvedPath path;
  path.given = canonical;
  path.canonical = canonical;
  path.exists = fs::exists(canonical);
  path.inside = true;
  path.inToolOutput = inToolOutput;
  return path;
}

template <typename T>
const T& expect(const std::variant<T, std::string>& result) {
  if (auto* error = std::get_if<std::string>(&result)) FAIL("unexpected refusal: " << *error);
  return std::get<T>(result);
}

std::string refusal(const std::variant<HeldLocation, std::string>& result) {
  REQUIRE(std::holds_alternative<std::string>(result));
  return std::get<std::string>(result);
}

} // namespace

TEST_CASE("held location: an existing file is held by its folder and name, with its status", "[held]") {
  TempDir dir("held");
  fs::create_directories(dir.path() / "a" / "b");
  std::ofstream(dir.path() / "a" / "b" / "f.txt") << "hi";
  auto held = holdLocation(resolved(dir.path() / "a" / "b" / "f.txt"), HoldPurpose::Read);
  const auto& location = expect(held);
  CHECK(location.leaf == "f.txt");
  REQUIRE(location.exists());
  CHECK(S_ISREG(location.status->st_mode));
  struct stat folder {}, expected {};
  REQUIRE(::fstat(location.directory.get(), &folder) == 0);
  REQUIRE(::stat((dir.path() / "a" / "b").c_str(), &expected) == 0);
  CHECK(folder.st_ino == expected.st_ino);
}

TEST_CASE("held location: a folder on the way that is now a symlink is refused as changed, for reading and writing",
          "[held]") {
  TempDir dir("held");
  fs::create_directories(dir.path() / "outside");
  std::ofstream(dir.path() / "outside" / "f.txt") << "secret";
  // What was checked was ws/d/f.txt with d a real folder; d is now a link to outside.
  fs::create_directories(dir.path() / "ws");
  fs::create_directory_symlink(dir.path() / "outside", dir.path() / "ws" / "d");
  const auto path = resolved(dir.path() / "ws" / "d" / "f.txt");
  for (auto purpose : {HoldPurpose::Read, HoldPurpose::Write}) {
    const std::string message = refusal(holdLocation(path, purpose));
    CHECK_THAT(message, Catch::Contains("changed after it was checked") && Catch::Contains("is now a symbolic link"));
  }
}

TEST_CASE("held location: a leaf that is now a symlink is refused as changed", "[held]") {
  TempDir dir("held");
  std::ofstream(dir.path() / "secret") << "secret";
  fs::create_symlink(dir.path() / "secret", dir.path() / "f.txt");
  CHECK_THAT(refusal(holdLocation(resolved(dir.path() / "f.txt"), HoldPurpose::Read)),
             Catch::Contains("changed after it was checked"));
}

TEST_CASE("held location: reading a path below a missing folder holds nothing, writing creates the folders", "[held]") {
  TempDir dir("held");
  const auto path = resolved(dir.path() / "x" / "y" / "f.txt");
  const auto held = holdLocation(path, HoldPurpose::Read); // kept: `reading` refers into it
  const auto& reading = expect(held);
  CHECK_FALSE(reading.directory);
  CHECK_FALSE(reading.exists());
  CHECK_FALSE(fs::exists(dir.path() / "x"));

  std::vector<fs::path> created;
  auto writing = holdLocation(path, HoldPurpose::Write, &created);
  const auto& location = expect(writing);
  CHECK(location.directory);
  CHECK_FALSE(location.exists());
  CHECK(created == std::vector<fs::path>{dir.path() / "x", dir.path() / "x" / "y"});
  CHECK(fs::is_directory(dir.path() / "x" / "y"));
}

TEST_CASE("held location: the tool-output folder is held for reading, never for writing", "[held]") {
  TempDir dir("held");
  std::ofstream(dir.path() / "tool_1") << "saved";
  const auto path = resolved(dir.path() / "tool_1", true);
  CHECK(expect(holdLocation(path, HoldPurpose::Read)).exists());
  CHECK_THAT(refusal(holdLocation(path, HoldPurpose::Write)), Catch::Contains("tool-output folder"));
}

TEST_CASE("held location: reads refuse FIFOs, devices and pseudo files at once, and open regular files", "[held]") {
  TempDir dir("held");
  REQUIRE(::mkfifo((dir.path() / "pipe").c_str(), 0600) == 0);
  std::ofstream(dir.path() / "plain") << "text";
  auto read = [](const fs::path& canonical) { return openHeldFile(expect(holdLocation(resolved(canonical), HoldPurpose::Read))); };

  auto fifo = read(dir.path() / "pipe"); // would block for a writer without O_NONBLOCK, and forever on read
  REQUIRE(std::holds_alternative<std::string>(fifo));
  CHECK_THAT(std::get<std::string>(fifo), Catch::Contains("is a FIFO") && Catch::Contains("can block or never end"));

  auto device = read("/dev/zero");
  REQUIRE(std::holds_alternative<std::string>(device));
  CHECK_THAT(std::get<std::string>(device), Catch::Contains("is a character device"));

  // /proc/self is a link; the resolver hands the canonical /proc/<pid> path on.
  auto pagemap = read(fs::canonical("/proc/self") / "pagemap");
  REQUIRE(std::holds_alternative<std::string>(pagemap));
  CHECK_THAT(std::get<std::string>(pagemap), Catch::Contains("is on the proc pseudo file system"));

  if (fs::exists("/sys/kernel/mm/transparent_hugepage/enabled")) {
    auto sysfs = read("/sys/kernel/mm/transparent_hugepage/enabled");
    REQUIRE(std::holds_alternative<std::string>(sysfs));
    CHECK_THAT(std::get<std::string>(sysfs), Catch::Contains("is on the sysfs pseudo file system"));
  }

  auto plain = read(dir.path() / "plain");
  REQUIRE(std::holds_alternative<UniqueFd>(plain));
  char buffer[8] = {};
  CHECK(::read(std::get<UniqueFd>(plain).get(), buffer, sizeof buffer) == 4);
}

TEST_CASE("held location: a memo of file systems asks fstatfs once per device and never mixes devices", "[held]") {
  using toold::core::FileSystemMemo;
  using toold::core::openReadableFileAt;
  using toold::core::ReadableFileRefusal;
  TempDir dir("held");
  std::ofstream(dir.path() / "a") << "first";
  std::ofstream(dir.path() / "b") << "second!";
  FileSystemMemo memo;
  struct stat status {};
  auto a = openReadableFileAt(AT_FDCWD, (dir.path() / "a").string(), false, &status, &memo);
  REQUIRE(std::holds_alternative<UniqueFd>(a));
  CHECK(status.st_size == 5); // the opened file's status, handed back
  REQUIRE(memo.known);
  CHECK(memo.device == status.st_dev);
  CHECK_FALSE(memo.pseudo);

  // A file of /proc after it: another device, looked at again, and refused.
  const std::string proc = (fs::canonical("/proc/self") / "status").string();
  auto refused = openReadableFileAt(AT_FDCWD, proc, false, nullptr, &memo);
  REQUIRE(std::holds_alternative<ReadableFileRefusal>(refused));
  CHECK(std::get<ReadableFileRefusal>(refused).kind == ReadableFileRefusal::Kind::Blocking);
  CHECK_THAT(std::get<ReadableFileRefusal>(refused).reason, Catch::Contains("proc pseudo file system"));
  CHECK(memo.pseudo);

  // And back: the memo of /proc does not refuse a file elsewhere.
  auto b = openReadableFileAt(AT_FDCWD, (dir.path() / "b").string(), false, &status, &memo);
  REQUIRE(std::holds_alternative<UniqueFd>(b));
  CHECK(status.st_size == 7);
  CHECK_FALSE(memo.pseudo);
  // The same /proc file again, with the memo of the temporary folder's device: still refused.
  CHECK(std::holds_alternative<ReadableFileRefusal>(openReadableFileAt(AT_FDCWD, proc, false, nullptr, &memo)));
}

TEST_CASE("held location: a file a listing called regular is opened at once and checked the same", "[held]") {
  using toold::core::openReadableFileAt;
  using toold::core::ReadableFileRefusal;
  using Kind = ReadableFileRefusal::Kind;
  TempDir dir("held");
  std::ofstream(dir.path() / "plain") << "text";
  REQUIRE(::mkfifo((dir.path() / "pipe").c_str(), 0600) == 0);
  fs::create_directory(dir.path() / "folder");
  fs::create_symlink(dir.path() / "plain", dir.path() / "link");
  auto open = [&](const std::string& name) {
    struct stat status {};
    return openReadableFileAt(AT_FDCWD, (dir.path() / name).string(), false, &status, nullptr, true);
  };
  auto kindOf = [](const auto& opened) {
    REQUIRE(std::holds_alternative<ReadableFileRefusal>(opened));
    return std::get<ReadableFileRefusal>(opened).kind;
  };
  CHECK(std::holds_alternative<UniqueFd>(open("plain")));
  // Entries the listing was wrong about (swapped since): refused as without the listing, and a
  // FIFO with no writer neither blocks the open nor is read.
  auto fifo = open("pipe");
  CHECK(kindOf(fifo) == Kind::Blocking);
  CHECK_THAT(std::get<ReadableFileRefusal>(fifo).reason, Catch::Contains("FIFO"));
  CHECK(kindOf(open("folder")) == Kind::Directory);
  CHECK(kindOf(open("link")) == Kind::Symlink);
  auto proc = openReadableFileAt(AT_FDCWD, (fs::canonical("/proc/self") / "status").string(), false, nullptr, nullptr, true);
  CHECK(kindOf(proc) == Kind::Blocking);
}

TEST_CASE("held location: resolving the fast way holds the folder it opened, the long way holds nothing", "[held]") {
  TempDir dir("held");
  const fs::path root = fs::canonical(dir.path()); // symlink-free, so the fast way applies
  fs::create_directories(root / "ws" / "src");
  fs::create_directories(root / "elsewhere");
  std::ofstream(root / "ws" / "src" / "a.txt") << "hi";
  fs::create_directory_symlink(root / "ws" / "src", root / "ws" / "linked");
  fs::create_symlink(root / "ws" / "src" / "a.txt", root / "ws" / "alias.txt");
  const Location location{root / "ws", root / "data", {}};

  SECTION("a file: the folder and the leaf's lstat") {
    ResolvedFolder found;
    const auto path = resolveToolPath((root / "ws" / "src" / "a.txt").string(), location, found);
    CHECK(path.canonical == root / "ws" / "src" / "a.txt");
    CHECK(path.exists);
    auto held = holdResolvedFolder(path, std::move(found));
    REQUIRE(held);
    CHECK(held->leaf == "a.txt");
    REQUIRE(held->exists());
    CHECK(S_ISREG(held->status->st_mode));
    struct stat status {};
    auto opened = openHeldFile(*held, &status);
    REQUIRE(std::holds_alternative<UniqueFd>(opened));
    CHECK(status.st_size == 2);
  }
  SECTION("a missing leaf in an existing folder: held, and not there") {
    ResolvedFolder found;
    const auto path = resolveToolPath("src/new.txt", location, found);
    CHECK(path.canonical == root / "ws" / "src" / "new.txt");
    CHECK_FALSE(path.exists);
    auto held = holdResolvedFolder(path, std::move(found));
    REQUIRE(held);
    CHECK_FALSE(held->exists());
  }
  SECTION("a symlink on the way, or as the leaf: resolved the long way, nothing held") {
    for (const char* given : {"linked/a.txt", "alias.txt", "missing/a.txt"}) {
      INFO(given);
      ResolvedFolder found;
      const auto path = resolveToolPath(given, location, found);
      CHECK_FALSE(found.folder);
      CHECK_FALSE(holdResolvedFolder(path, std::move(found)));
    }
    ResolvedFolder found;
    CHECK(resolveToolPath("alias.txt", location, found).canonical == root / "ws" / "src" / "a.txt");
  }
}

TEST_CASE("held location: a file in the workspace folder is held through the root's own descriptor, never closed",
          "[held][root]") {
  TempDir dir("held");
  const fs::path root = fs::canonical(dir.path());
  fs::create_directories(root / "ws" / "src");
  std::ofstream(root / "ws" / "top.txt") << "top";
  std::ofstream(root / "ws" / "src" / "a.txt") << "hi";
  Location location{root / "ws", root / "data", {}};
  location.root = toold::core::openWorkspaceRoot(root / "ws");
  REQUIRE(location.root);
  const int rootFd = location.root->folder.get();
  for (int round = 0; round < 2; ++round) { // a second read finds the root's descriptor still open
    ResolvedFolder found;
    const auto path = resolveToolPath("top.txt", location, found);
    // No folder opened for it: the root's descriptor is the folder.
    CHECK(found.folder.get() == rootFd);
    auto held = holdResolvedFolder(path, std::move(found));
    REQUIRE(held);
    REQUIRE(held->exists());
    struct stat status {};
    auto opened = openHeldFile(*held, &status);
    REQUIRE(std::holds_alternative<UniqueFd>(opened));
    CHECK(status.st_size == 3);
  }
  CHECK(::fcntl(rootFd, F_GETFD) >= 0);
  // A file in a folder below it gets a folder of its own.
  ResolvedFolder found;
  resolveToolPath("src/a.txt", location, found);
  REQUIRE(found.folder);
  CHECK(found.folder.get() != rootFd);
}

TEST_CASE("unique fd: a borrowed descriptor is used, moved and dropped without being closed", "[held]") {
  TempDir dir("held");
  const int fd = ::open(dir.path().c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  REQUIRE(fd >= 0);
  {
    UniqueFd borrowed = UniqueFd::borrow(fd);
    CHECK(borrowed.get() == fd);
    UniqueFd moved(std::move(borrowed));
    CHECK(moved.get() == fd);
    UniqueFd assigned;
    assigned = std::move(moved);
    CHECK(assigned.get() == fd);
  }
  CHECK(::fcntl(fd, F_GETFD) >= 0);
  {
    UniqueFd owner(fd); // an owning one still closes
  }
  CHECK(::fcntl(fd, F_GETFD) < 0);
}
