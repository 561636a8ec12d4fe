#include "builtins/shell/output_log.h"
#include "tests/support/temp_dir.h"

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <sys/stat.h>

using namespace toold::builtins;
namespace fs = std::filesystem;

namespace {

std::string contents(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

} // namespace

TEST_CASE("output log: small output stays in memory until persisted", "[output_log]") {
  toold::testing::TempDir dir("output_log_test");
  const auto folder = dir.path() / "tool-output";
  OutputLog log(folder, 16);
  log.append("hello ");
  log.append("world");
  CHECK_FALSE(log.path());
  CHECK_FALSE(fs::exists(folder));
  CHECK(log.size() == 11);
  auto path = log.persist();
  REQUIRE(path);
  CHECK(path->parent_path() == folder);
  CHECK(path->filename().string().starts_with("tool_"));
  CHECK(contents(*path) == "hello world");
  struct stat info {};
  REQUIRE(::stat(path->c_str(), &info) == 0);
  CHECK((info.st_mode & 0777) == 0600);
  log.append("!");
  CHECK(contents(*path) == "hello world!");
}

TEST_CASE("output log: output past the memory limit goes to the file, in order", "[output_log]") {
  toold::testing::TempDir dir("output_log_test");
  OutputLog log(dir.path(), 8);
  log.append("12345");
  log.append("6789abc");
  REQUIRE(log.path());
  log.append(std::string("\0raw\x1b[1m", 8));
  CHECK(contents(*log.path()) == std::string("123456789abc\0raw\x1b[1m", 20));
  CHECK(log.size() == 20);
  CHECK(log.error().empty());
  log.remove();
  CHECK_FALSE(fs::exists(*log.path()));
}

TEST_CASE("output log: a folder that cannot be created is an error, not an exception", "[output_log]") {
  toold::testing::TempDir dir("output_log_test");
  std::ofstream(dir.path() / "file") << "x";
  OutputLog log(dir.path() / "file" / "sub", 0);
  log.append("data");
  CHECK_FALSE(log.persist());
  CHECK(log.error().find("cannot create") != std::string::npos);
  CHECK(log.size() == 4);
}

TEST_CASE("output log: slices end at whole lines, then at character boundaries", "[output_log]") {
  toold::testing::TempDir dir("output_log_test");
  const auto path = dir.path() / "log";
  std::ofstream(path, std::ios::binary) << "one\ntwo\nthree\n";
  auto first = readLogSlice(path, 0, 10, 100);
  CHECK(first.bytes == "one\ntwo\n");
  CHECK(first.nextOffset == 8);
  CHECK(first.fileSize == 14);
  auto rest = readLogSlice(path, first.nextOffset, 100, 100);
  CHECK(rest.bytes == "three\n");
  CHECK(rest.nextOffset == 14);
  CHECK(readLogSlice(path, 99, 10, 10).bytes.empty()); // past the end: nothing, at the end
  CHECK(readLogSlice(path, 0, 100, 2).bytes == "one\ntwo\n");
  // No newline within the slice: cut before a character split in two.
  std::ofstream(path, std::ios::binary | std::ios::trunc) << "ab\xc3\xa9" << "cd";
  CHECK(readLogSlice(path, 0, 3, 10).bytes == "ab");
  CHECK(readLogSlice(path, 0, 4, 10).bytes == "ab\xc3\xa9");
  CHECK_THROWS(readLogSlice(dir.path() / "missing", 0, 10, 10));
}

TEST_CASE("output log: a bounded log keeps the head and the tail, in order once finished", "[output_log]") {
  toold::testing::TempDir dir("output_log_test");
  OutputLog log(dir.path(), 0, 10);
  log.append("0123");
  log.append("456789");
  CHECK(log.orderedBytes() == 10); // exactly at the bound: all of it, in order
  // 26 letters more, in pieces that wrap the ring and one longer than the ring.
  log.append("abcdefg");
  CHECK(log.orderedBytes() == 5);
  log.append("hijklmnopqrstu");
  log.append("vwxyz");
  CHECK(log.size() == 36);
  const auto kept = log.finish();
  CHECK(kept.totalBytes == 36);
  CHECK(kept.headBytes == 5);
  CHECK(kept.tailBytes == 5);
  REQUIRE(log.path());
  CHECK(contents(*log.path()) ==
        "01234\n\n... 26 bytes left out here: this file keeps the first 5 and the last 5 bytes of 36 ...\n\nvwxyz");
  CHECK(log.error().empty());
  // Nothing is left beside it (the file it was put in order through was renamed over it).
  CHECK(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()) == 1);
}

TEST_CASE("output log: a bounded log within its bound is left as it is", "[output_log]") {
  toold::testing::TempDir dir("output_log_test");
  OutputLog log(dir.path(), 4, 100);
  log.append("hello ");
  log.append("world");
  const auto kept = log.finish();
  CHECK(kept.whole());
  REQUIRE(log.path());
  CHECK(contents(*log.path()) == "hello world");
}

TEST_CASE("output log: the tail's ring moves off broken characters when put in order", "[output_log]") {
  toold::testing::TempDir dir("output_log_test");
  OutputLog log(dir.path(), 0, 8);
  // The head "abc\xc3" would end inside é; the tail "\x82\xacxy" would start inside €.
  log.append("abc\xc3\xa9----\xe2\x82\xac" "xy");
  const auto kept = log.finish();
  CHECK(kept.headBytes == 3);
  CHECK(kept.tailBytes == 2);
  CHECK(contents(*log.path()).starts_with("abc\n\n... "));
  CHECK(contents(*log.path()).ends_with(" ...\n\nxy"));
}
