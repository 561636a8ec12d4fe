#include "builtins/files/open_file_cache.h"
#include "tests/support/temp_dir.h"

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/stat.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>

using toold::builtins::OpenFileCache;
using toold::core::UniqueFd;
using toold::testing::TempDir;

namespace {

std::string writeFile(const TempDir& dir, const std::string& name, const std::string& bytes) {
  const auto path = (dir.path() / name).string();
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

struct stat lstatOf(const std::string& path) {
  struct stat status {};
  REQUIRE(::lstat(path.c_str(), &status) == 0);
  return status;
}

/// Opens `path` as the read tool does, with its fstat.
OpenFileCache::SharedFd openWithStatus(const std::string& path, struct stat& status) {
  auto file = std::make_shared<const UniqueFd>(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  REQUIRE(*file);
  REQUIRE(::fstat(file->get(), &status) == 0);
  return file;
}

} // namespace

TEST_CASE("open file cache: a kept file serves the next read of the same inode", "[open-files]") {
  TempDir dir("open_file_cache");
  const auto path = writeFile(dir, "a.txt", "one\n");
  OpenFileCache cache;
  CHECK_FALSE(cache.find(path, lstatOf(path)));
  struct stat opened {};
  auto file = openWithStatus(path, opened);
  cache.keep(path, file, opened);
  CHECK(cache.find(path, lstatOf(path)) == file);
  CHECK(cache.find(path, lstatOf(path)) == file);
  // Another path naming the same inode is not this entry.
  CHECK_FALSE(cache.find((dir.path() / "b.txt").string(), lstatOf(path)));
}

TEST_CASE("open file cache: a file changed in place, or made unreadable, is opened afresh", "[open-files]") {
  TempDir dir("open_file_cache");
  const auto path = writeFile(dir, "a.txt", "one\n");
  OpenFileCache cache;
  struct stat opened {};
  // File times move in clock ticks of a few milliseconds: each change comes a tick after the open.
  const auto aTick = std::chrono::milliseconds(30);
  cache.keep(path, openWithStatus(path, opened), opened);
  std::this_thread::sleep_for(aTick);
  REQUIRE(::chmod(path.c_str(), 0) == 0); // a person hiding it: never read through the old descriptor
  CHECK_FALSE(cache.find(path, lstatOf(path)));
  CHECK(cache.size() == 0);
  REQUIRE(::chmod(path.c_str(), 0644) == 0);
  cache.keep(path, openWithStatus(path, opened), opened);
  std::this_thread::sleep_for(aTick);
  std::ofstream(path, std::ios::binary | std::ios::app) << "two\n";
  CHECK_FALSE(cache.find(path, lstatOf(path)));
}

TEST_CASE("open file cache: a replaced or removed file is opened afresh", "[open-files]") {
  TempDir dir("open_file_cache");
  const auto path = writeFile(dir, "a.txt", "old\n");
  OpenFileCache cache;
  struct stat opened {};
  auto file = openWithStatus(path, opened);
  cache.keep(path, file, opened);
  // Replaced by rename, as every toold write and most editors replace a file: another inode.
  const auto staged = writeFile(dir, "a.txt.new", "new\n");
  REQUIRE(std::rename(staged.c_str(), path.c_str()) == 0);
  CHECK_FALSE(cache.find(path, lstatOf(path)));
  CHECK(cache.size() == 0); // dropped: the old inode's descriptor closes with the last holder
  // The caller that still holds it reads on, undisturbed.
  char byte = 0;
  CHECK(::pread(file->get(), &byte, 1, 0) == 1);
  CHECK(byte == 'o');
}

TEST_CASE("open file cache: only small regular files, a bounded number, for a bounded time", "[open-files]") {
  TempDir dir("open_file_cache");
  OpenFileCache cache;
  const auto start = OpenFileCache::Clock::now();
  // A file over the size kept is not kept.
  const auto large = writeFile(dir, "large.txt", std::string(static_cast<std::size_t>(OpenFileCache::kMaxKeptBytes) + 1, 'x'));
  struct stat opened {};
  cache.keep(large, openWithStatus(large, opened), opened, start);
  CHECK(cache.size() == 0);
  // A kept file grown past it is no longer served.
  const auto grows = writeFile(dir, "grows.txt", "small\n");
  cache.keep(grows, openWithStatus(grows, opened), opened, start);
  std::ofstream(grows, std::ios::binary | std::ios::app) << std::string(static_cast<std::size_t>(OpenFileCache::kMaxKeptBytes), 'y');
  CHECK_FALSE(cache.find(grows, lstatOf(grows), start));
  // The least recently used goes when more are kept than the capacity.
  std::vector<std::string> paths;
  for (std::size_t i = 0; i <= OpenFileCache::kCapacity; ++i) {
    paths.push_back(writeFile(dir, "f" + std::to_string(i), "x\n"));
    cache.keep(paths.back(), openWithStatus(paths.back(), opened), opened, start);
  }
  CHECK(cache.size() == OpenFileCache::kCapacity);
  CHECK_FALSE(cache.find(paths.front(), lstatOf(paths.front()), start));
  CHECK(cache.find(paths.back(), lstatOf(paths.back()), start));
  // One unused for longer than kKeepFor is closed at the next use of the cache.
  const auto later = start + OpenFileCache::kKeepFor + std::chrono::seconds(1);
  CHECK(cache.find(paths[1], lstatOf(paths[1]), start + OpenFileCache::kKeepFor));
  CHECK_FALSE(cache.find(paths[2], lstatOf(paths[2]), later));
  CHECK(cache.size() == 1); // paths[1], used at kKeepFor, is within it still
}
