#include "builtins/files/file_transaction.h"

#include "core/files/change_journal.h"
#include "tests/support/file_contents.h"
#include "tests/support/temp_dir.h"

#include <catch2/catch.hpp>

#include <fstream>
#include <sys/stat.h>

namespace fs = std::filesystem;
using namespace toold::builtins;
using toold::testing::TempDir;
using toold::testing::contentOf;
using toold::testing::put;

namespace {

} // namespace

TEST_CASE("file transaction: adds, replaces and removes files, creating folders", "[transaction]") {
  TempDir dir("transaction");
  put(dir.path() / "a.txt", "a");
  put(dir.path() / "gone.txt", "bye");
  std::vector<FileChange> changes{
      {dir.path() / "a.txt", std::string("A"), std::string("a"), 0644, 0644},
      {dir.path() / "new" / "deep" / "b.txt", std::string("B"), std::nullopt, 0644, 0755},
      {dir.path() / "gone.txt", std::nullopt, std::string("bye"), 0644, 0644},
  };
  auto result = commitFileChanges(changes, nullptr);
  CHECK(result.error.empty());
  CHECK(result.written.size() == 2);
  CHECK(contentOf(dir.path() / "a.txt") == "A");
  CHECK(contentOf(dir.path() / "new" / "deep" / "b.txt") == "B");
  struct stat status {};
  REQUIRE(::stat((dir.path() / "new" / "deep" / "b.txt").c_str(), &status) == 0);
  CHECK((status.st_mode & 0100) != 0); // the create mode (under the umask) applies to a new file
  CHECK_FALSE(fs::exists(dir.path() / "gone.txt"));
}

TEST_CASE("file transaction: a failing commit puts back every file it already changed", "[transaction]") {
  TempDir dir("transaction");
  put(dir.path() / "a.txt", "a");
  put(dir.path() / "b.txt", "b");
  // The third target is a non-empty folder: renaming a file over it fails after a.txt and c.txt
  // were committed, and removing b.txt never happens.
  fs::create_directories(dir.path() / "blocker" / "inside");
  std::vector<FileChange> changes{
      {dir.path() / "a.txt", std::string("A"), std::string("a"), 0644, 0644},
      {dir.path() / "fresh" / "c.txt", std::string("C"), std::nullopt, 0644, 0644},
      {dir.path() / "blocker", std::string("X"), std::nullopt, 0644, 0644},
      {dir.path() / "b.txt", std::nullopt, std::string("b"), 0644, 0644},
  };
  auto result = commitFileChanges(changes, nullptr);
  CHECK_THAT(result.error, Catch::Contains("cannot rename onto") && Catch::Contains("every file was restored"));
  CHECK(contentOf(dir.path() / "a.txt") == "a");
  CHECK_FALSE(fs::exists(dir.path() / "fresh")); // the new file and the folder made for it are gone
  CHECK(contentOf(dir.path() / "b.txt") == "b");
  CHECK(fs::is_directory(dir.path() / "blocker" / "inside"));
  // No temporary file is left anywhere.
  for (const auto& entry : fs::recursive_directory_iterator(dir.path()))
    CHECK(entry.path().filename().string().find(".toold-") == std::string::npos);
}

TEST_CASE("file transaction: a failure while staging changes nothing", "[transaction]") {
  TempDir dir("transaction");
  put(dir.path() / "a.txt", "a");
  put(dir.path() / "file", "not a folder");
  std::vector<FileChange> changes{
      {dir.path() / "a.txt", std::string("A"), std::string("a"), 0644, 0644},
      {dir.path() / "file" / "b.txt", std::string("B"), std::nullopt, 0644, 0644},
  };
  auto result = commitFileChanges(changes, nullptr);
  CHECK_THAT(result.error, Catch::Contains("nothing was changed"));
  CHECK(contentOf(dir.path() / "a.txt") == "a");
  CHECK(result.written.empty());
}

TEST_CASE("file transaction: with a journal, many files commit in one flush each way and leave no journal",
          "[transaction]") {
  TempDir dir("transaction");
  toold::core::ChangeJournal journal(dir.path() / "journal");
  put(dir.path() / "old.txt", "old");
  std::vector<FileChange> changes;
  for (int i = 0; i < 50; ++i)
    changes.push_back({dir.path() / ("d" + std::to_string(i % 5)) / ("f" + std::to_string(i)), std::string("x") + std::to_string(i),
                       std::nullopt, 0644, 0644});
  changes.push_back({dir.path() / "old.txt", std::nullopt, std::string("old"), 0644, 0644});
  auto result = commitFileChanges(changes, nullptr, &journal);
  REQUIRE(result.error.empty());
  CHECK(result.written.size() == 50);
  CHECK(contentOf(dir.path() / "d3" / "f13") == "x13");
  CHECK_FALSE(fs::exists(dir.path() / "old.txt"));
  CHECK(fs::is_empty(dir.path() / "journal"));
  for (const auto& entry : fs::recursive_directory_iterator(dir.path()))
    CHECK(entry.path().filename().string().find(".toold-") == std::string::npos);
}
