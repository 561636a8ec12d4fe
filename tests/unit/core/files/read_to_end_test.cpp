#include "core/files/read_to_end.h"

#include <catch2/catch.hpp>

#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace toold::core;

TEST_CASE("read to end: a file larger than one read comes back whole") {
  char folder[] = "/tmp/toold-read-to-end-XXXXXX";
  REQUIRE(::mkdtemp(folder) != nullptr);
  const auto path = std::filesystem::path(folder) / "big";
  std::string content;
  for (int i = 0; i < 30000; ++i) content += "line " + std::to_string(i) + "\n";
  std::ofstream(path, std::ios::binary) << content;
  const int fd = ::open(path.c_str(), O_RDONLY);
  REQUIRE(fd >= 0);
  const auto read = readToEnd(fd, 16);
  ::close(fd);
  REQUIRE(read.has_value());
  CHECK(*read == content);
  std::filesystem::remove_all(folder);
}

TEST_CASE("read to end: a failing read is an error, not an empty or shorter file") {
  const int fd = ::open("/", O_RDONLY | O_DIRECTORY);
  REQUIRE(fd >= 0);
  errno = 0;
  const auto read = readToEnd(fd);
  const int saved = errno;
  ::close(fd);
  CHECK_FALSE(read.has_value());
  CHECK(saved == EISDIR);
}
