#include "core/files/atomic_file.h"

#include "core/base/unique_fd.h"
#include "tests/support/file_contents.h"
#include "tests/support/temp_dir.h"

#include <catch2/catch.hpp>

#include <csignal>
#include <fcntl.h>
#include <fstream>
#include <sys/resource.h>
#include <sys/stat.h>

namespace fs = std::filesystem;
using toold::core::writeFileAtomically;
using toold::testing::TempDir;
using toold::testing::contentOf;

namespace {

std::size_t entriesIn(const fs::path& directory) {
  return static_cast<std::size_t>(std::distance(fs::directory_iterator(directory), fs::directory_iterator()));
}

mode_t modeOf(const fs::path& path) {
  struct stat status {};
  ::stat(path.c_str(), &status);
  return status.st_mode & 07777;
}

} // namespace

TEST_CASE("atomic file: a new file gets the mode asked for, and the status written is returned", "[atomic]") {
  TempDir dir("atomic");
  const auto target = dir.path() / "new.txt";
  const mode_t old = ::umask(022);
  struct stat written {};
  CHECK(writeFileAtomically(target, "hello", 0666, &written).empty());
  ::umask(old);
  CHECK(contentOf(target) == "hello");
  CHECK(modeOf(target) == 0644);
  struct stat now {};
  REQUIRE(::stat(target.c_str(), &now) == 0);
  CHECK(written.st_ino == now.st_ino);
  CHECK(written.st_size == 5);
  CHECK(entriesIn(dir.path()) == 1); // no temporary file left
}

TEST_CASE("atomic file: replacing a file keeps its mode, whatever mode is asked for", "[atomic]") {
  TempDir dir("atomic");
  const auto target = dir.path() / "run.sh";
  { std::ofstream(target) << "old"; }
  fs::permissions(target, fs::perms(0750));
  CHECK(writeFileAtomically(target, "#!/bin/sh\n", 0644).empty());
  CHECK(contentOf(target) == "#!/bin/sh\n");
  CHECK(modeOf(target) == 0750);
}

TEST_CASE("atomic file: a write that fails midway leaves the original intact and no temporary file", "[atomic]") {
  TempDir dir("atomic");
  const auto target = dir.path() / "keep.txt";
  const std::string original = "the original content\n";
  { std::ofstream(target, std::ios::binary) << original; }
  // A file size limit makes write() fail after 4 KiB, as a full disk would: EFBIG instead of a signal.
  struct sigaction ignore {}, previous {};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGXFSZ, &ignore, &previous);
  struct rlimit oldLimit {};
  ::getrlimit(RLIMIT_FSIZE, &oldLimit);
  struct rlimit small = oldLimit;
  small.rlim_cur = 4096;
  REQUIRE(::setrlimit(RLIMIT_FSIZE, &small) == 0);
  const std::string error = writeFileAtomically(target, std::string(1 << 20, 'x'), 0644);
  ::setrlimit(RLIMIT_FSIZE, &oldLimit);
  ::sigaction(SIGXFSZ, &previous, nullptr);
  CHECK_THAT(error, Catch::Contains("cannot write"));
  CHECK(contentOf(target) == original);
  CHECK(entriesIn(dir.path()) == 1);
}

TEST_CASE("atomic file: a missing directory is an error that names the path", "[atomic]") {
  TempDir dir("atomic");
  const auto error = writeFileAtomically(dir.path() / "no" / "such.txt", "x", 0644);
  CHECK_THAT(error, Catch::Contains((dir.path() / "no").string()) && Catch::Contains("No such file or directory"));
}

TEST_CASE("atomic file: staging, rename and flush happen in the held folder, whatever its path now leads to",
          "[atomic]") {
  TempDir dir("atomic");
  fs::create_directories(dir.path() / "real");
  fs::create_directories(dir.path() / "outside");
  toold::core::UniqueFd held(::open((dir.path() / "real").c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  REQUIRE(held);
  // The folder's name now leads elsewhere: the write must not follow it.
  fs::rename(dir.path() / "real", dir.path() / "moved");
  fs::create_directory_symlink(dir.path() / "outside", dir.path() / "real");
  struct stat written {};
  CHECK(toold::core::writeFileAtomically(held.get(), dir.path() / "real" / "f.txt", "held", 0644, &written).empty());
  CHECK(contentOf(dir.path() / "moved" / "f.txt") == "held");
  CHECK(entriesIn(dir.path() / "moved") == 1); // no staging file left behind
  CHECK(entriesIn(dir.path() / "outside") == 0);
}
