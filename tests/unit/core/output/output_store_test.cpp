// The tool output folder: files hold exactly the text, names never repeat and sort in creation
// order, failures throw and leave nothing behind, and cleanup removes only old tool_ files.
#include "core/output/output_store.h"
#include "tests/support/temp_dir.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cctype>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;
using toold::core::newOutputId;
using toold::core::OutputStore;
using toold::core::StorageError;
using toold::testing::TempDir;

namespace {


std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::size_t entriesIn(const fs::path& dir) {
  return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

unsigned modeOf(const fs::path& path) {
  struct stat info {};
  REQUIRE(::stat(path.c_str(), &info) == 0);
  return info.st_mode & 07777U;
}

/// Caps the size of files this process may write, so a write fails part way (EFBIG) even for
/// root; SIGXFSZ is ignored meanwhile so the failure is an error return, not the end of the process.
class FileSizeCap {
public:
  explicit FileSizeCap(rlim_t bytes) {
    REQUIRE(::getrlimit(RLIMIT_FSIZE, &saved_) == 0);
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    REQUIRE(::sigaction(SIGXFSZ, &ignore, &savedAction_) == 0);
    rlimit capped = saved_;
    capped.rlim_cur = bytes;
    REQUIRE(::setrlimit(RLIMIT_FSIZE, &capped) == 0);
  }
  ~FileSizeCap() {
    ::setrlimit(RLIMIT_FSIZE, &saved_);
    ::sigaction(SIGXFSZ, &savedAction_, nullptr);
  }
  FileSizeCap(const FileSizeCap&) = delete;
  FileSizeCap& operator=(const FileSizeCap&) = delete;

private:
  rlimit saved_{};
  struct sigaction savedAction_ {};
};

} // namespace

TEST_CASE("an id is 14 hex digits of time then 14 base62 characters", "[output_store]") {
  const std::string id = newOutputId();
  REQUIRE(id.size() == 28);
  for (std::size_t i = 0; i < 14; ++i) {
    CAPTURE(id, i);
    CHECK(std::string_view("0123456789abcdef").find(id[i]) != std::string_view::npos);
  }
  for (std::size_t i = 14; i < 28; ++i) {
    CAPTURE(id, i);
    CHECK(std::isalnum(static_cast<unsigned char>(id[i])) != 0);
  }
}

TEST_CASE("ids made on many threads never repeat, and each thread's sort in its order", "[output_store]") {
  std::vector<std::vector<std::string>> perThread(4);
  std::vector<std::thread> threads;
  for (auto& mine : perThread) {
    threads.emplace_back([&mine] {
      for (int i = 0; i < 2000; ++i) mine.push_back(newOutputId());
    });
  }
  for (auto& thread : threads) thread.join();
  std::set<std::string> ids;
  for (const auto& mine : perThread) {
    CHECK(std::is_sorted(mine.begin(), mine.end()));
    ids.insert(mine.begin(), mine.end());
  }
  CHECK(ids.size() == 8000);
}

TEST_CASE("retain writes exactly the text to a new private file in <data-dir>/tool-output", "[output_store]") {
  TempDir data("output_store_test");
  OutputStore store(data.path());
  CHECK(store.folder() == data.path() / "tool-output");

  const std::string text = std::string("line one\nzwei é € 😀\n") + '\0' + "after a NUL byte\r\n";
  const fs::path path = store.retain(text).path;
  CHECK(path.is_absolute());
  CHECK(path.parent_path() == store.folder());
  CHECK(path.filename().string().starts_with("tool_"));
  CHECK(path.filename().string().size() == 5 + 28);
  CHECK(readFile(path) == text);
  CHECK(modeOf(path) == 0600U);
  CHECK(modeOf(store.folder()) == 0700U);

  const fs::path empty = store.retain("").path;
  CHECK(fs::file_size(empty) == 0);
}

TEST_CASE("retain creates missing parents of the folder, and a relative data dir is made absolute", "[output_store]") {
  TempDir data("output_store_test");
  OutputStore nested(data.path() / "a" / "b");
  CHECK(readFile(nested.retain("x").path) == "x");
  CHECK(modeOf(data.path() / "a") == 0700U);

  OutputStore relative("some-relative-dir");
  CHECK(relative.folder().is_absolute());
  CHECK(relative.folder() == fs::current_path() / "some-relative-dir" / "tool-output");
}

TEST_CASE("retain makes the folder again when it was removed since the last file", "[output_store]") {
  // The folder is made when a file does not find it, not looked for before every file: a folder
  // removed behind the store's back must still be made again, private.
  TempDir data("output_store_test");
  OutputStore store(data.path() / "deep");
  CHECK(readFile(store.retain("first").path) == "first");
  fs::remove_all(data.path() / "deep");
  const fs::path again = store.retain("second").path;
  CHECK(readFile(again) == "second");
  CHECK(modeOf(store.folder()) == 0700U);
  CHECK(modeOf(data.path() / "deep") == 0700U);
}

TEST_CASE("1000 retains make 1000 distinct files whose names sort in creation order", "[output_store]") {
  TempDir data("output_store_test");
  OutputStore store(data.path());
  std::vector<std::string> names;
  for (int i = 0; i < 1000; ++i) {
    const fs::path path = store.retain("text " + std::to_string(i)).path;
    names.push_back(path.filename().string());
  }
  CHECK(std::is_sorted(names.begin(), names.end()));
  CHECK(std::set<std::string>(names.begin(), names.end()).size() == 1000);
  CHECK(entriesIn(store.folder()) == 1000);
  CHECK(readFile(store.folder() / names[537]) == "text 537");
}

TEST_CASE("the same text again names the file kept for it, while that file still holds it", "[output_store]") {
  TempDir data("output_store_test");
  OutputStore store(data.path());
  const auto first = store.retain("the same page");
  const fs::path other = store.retain("another page").path;
  // Made old, so that reusing it must set its time to now (the age clean-up counts from there).
  fs::last_write_time(first.path, fs::file_time_type::clock::now() - std::chrono::hours(24 * 6));
  const auto again = store.retain("the same page");
  CHECK(again.path == first.path);
  CHECK(again.part.whole());
  CHECK(fs::last_write_time(first.path) > fs::file_time_type::clock::now() - std::chrono::hours(1));
  CHECK(entriesIn(store.folder()) == 2);
  CHECK(store.keptBytes() == std::string("the same page").size() + std::string("another page").size());

  // A file changed since (same size, other bytes) or removed is not named again: a new one is kept.
  { std::ofstream(first.path, std::ios::trunc) << "the sane page"; }
  const auto changed = store.retain("the same page");
  CHECK(changed.path != first.path);
  CHECK(readFile(changed.path) == "the same page");
  fs::remove(other);
  const auto removed = store.retain("another page");
  CHECK(removed.path != other);
  CHECK(readFile(removed.path) == "another page");
}

TEST_CASE("a kept file proven unchanged by its stat is still checked for changes made in place", "[output_store]") {
  TempDir data("output_store_test");
  OutputStore store(data.path());
  const auto first = store.retain("the same page");
  // Past the settling time, the next reuse reads the file once and from then on trusts its stat.
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  CHECK(store.retain("the same page").path == first.path);
  CHECK(store.retain("the same page").path == first.path);
  // Rewritten in place with other bytes of the same size: same file, same size, a new change time.
  {
    std::fstream file(first.path, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(6);
    file << "n";
  }
  REQUIRE(readFile(first.path) == "the sane page");
  const auto changed = store.retain("the same page");
  CHECK(changed.path != first.path);
  CHECK(readFile(changed.path) == "the same page");
  // Replaced by another file of the same text: named again only once read.
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  CHECK(store.retain("the same page").path == changed.path);
  fs::remove(changed.path);
  { std::ofstream(changed.path) << "the same page"; }
  CHECK(store.retain("the same page").path == changed.path);
}

TEST_CASE("a kept file named again has its time set to now once it is a minute old", "[output_store]") {
  TempDir data("output_store_test");
  OutputStore store(data.path());
  const auto first = store.retain("the same page");
  const auto halfMinuteAgo = fs::file_time_type::clock::now() - std::chrono::seconds(30);
  fs::last_write_time(first.path, halfMinuteAgo);
  CHECK(store.retain("the same page").path == first.path);
  CHECK(fs::last_write_time(first.path) == halfMinuteAgo);
  fs::last_write_time(first.path, fs::file_time_type::clock::now() - std::chrono::minutes(2));
  CHECK(store.retain("the same page").path == first.path);
  CHECK(fs::last_write_time(first.path) > fs::file_time_type::clock::now() - std::chrono::seconds(10));
}

TEST_CASE("only the last outputs kept are named again", "[output_store]") {
  TempDir data("output_store_test");
  OutputStore store(data.path());
  const fs::path oldest = store.retain("text 0").path;
  for (std::size_t i = 1; i <= toold::core::RecentOutputs::kRemembered; ++i) store.retain("text " + std::to_string(i));
  const auto again = store.retain("text 0");
  CHECK(again.path != oldest);
  const std::string newest = std::string("text ") + std::to_string(toold::core::RecentOutputs::kRemembered);
  CHECK(store.retain(newest).path == store.retain(newest).path);
}

TEST_CASE("a write that fails part way throws StorageError and leaves no file", "[output_store]") {
  TempDir data("output_store_test");
  OutputStore store(data.path());
  store.retain("kept");
  {
    const FileSizeCap cap(4096);
    try {
      store.retain(std::string(100000, 'x'));
      FAIL("a write past the file size limit succeeded");
    } catch (const StorageError& e) {
      CHECK_THAT(std::string(e.what()), Catch::Contains(store.folder().string() + "/tool_") &&
                                            Catch::Contains(std::generic_category().message(EFBIG)));
    }
  }
  CHECK(entriesIn(store.folder()) == 1);
}

TEST_CASE("a folder that cannot be created throws StorageError naming it", "[output_store]") {
  TempDir data("output_store_test");
  std::ofstream(data.path() / "not-a-directory") << "x";
  OutputStore store(data.path() / "not-a-directory");
  try {
    store.retain("text");
    FAIL("retained into a folder under a regular file");
  } catch (const StorageError& e) {
    CHECK_THAT(std::string(e.what()), Catch::Contains(store.folder().string()) &&
                                          Catch::Contains(std::generic_category().message(ENOTDIR)));
  }
}

TEST_CASE("an unwritable data dir or folder throws StorageError and leaves no file", "[output_store]") {
  if (::geteuid() == 0) {
    WARN("running as root, which bypasses permissions: skipped");
    return;
  }
  SECTION("the data dir is read-only: no folder can be made") {
    TempDir data("output_store_test");
    fs::permissions(data.path(), fs::perms::owner_read | fs::perms::owner_exec);
    OutputStore store(data.path());
    try {
      store.retain("text");
      FAIL("retained into a read-only data dir");
    } catch (const StorageError& e) {
      CHECK_THAT(std::string(e.what()), Catch::Contains(store.folder().string()) &&
                                            Catch::Contains(std::generic_category().message(EACCES)));
    }
    CHECK_FALSE(fs::exists(store.folder()));
  }
  SECTION("the folder is read-only: no file can be created") {
    TempDir data("output_store_test");
    OutputStore store(data.path());
    store.retain("kept");
    fs::permissions(store.folder(), fs::perms::owner_read | fs::perms::owner_exec);
    CHECK_THROWS_AS(store.retain("text"), StorageError);
    CHECK(entriesIn(store.folder()) == 1);
  }
}

TEST_CASE("cleanup deletes tool_ files older than the maximum age and keeps everything else", "[output_store]") {
  TempDir data("output_store_test");
  OutputStore store(data.path());
  const fs::path oldFile = store.retain("old").path;
  const fs::path barelyOld = store.retain("seven days and a minute").path;
  const fs::path barelyYoung = store.retain("six days 23 hours 59 minutes").path;
  const fs::path recent = store.retain("recent").path;
  const fs::path foreign = store.folder() / "notes.txt";
  std::ofstream(foreign) << "not ours";
  const fs::path directory = store.folder() / "tool_directory";
  fs::create_directory(directory);

  const auto now = fs::file_time_type::clock::now();
  const auto week = std::chrono::hours(24 * 7);
  fs::last_write_time(oldFile, now - std::chrono::hours(24 * 30));
  fs::last_write_time(barelyOld, now - week - std::chrono::minutes(1));
  fs::last_write_time(barelyYoung, now - week + std::chrono::minutes(1));
  fs::last_write_time(recent, now - std::chrono::hours(24));
  fs::last_write_time(foreign, now - std::chrono::hours(24 * 30));
  fs::last_write_time(directory, now - std::chrono::hours(24 * 30));

  const auto report = store.cleanup(now);
  CHECK(report.deleted == 2);
  CHECK(report.kept == 4);
  CHECK(report.failed == 0);
  CHECK_FALSE(fs::exists(oldFile));
  CHECK_FALSE(fs::exists(barelyOld));
  CHECK(fs::exists(barelyYoung));
  CHECK(fs::exists(recent));
  CHECK(fs::exists(foreign));
  CHECK(fs::exists(directory));

  // A shorter maximum age reaches the younger files too.
  const auto second = store.cleanup(now, std::chrono::hours(1));
  CHECK(second.deleted == 2);
  CHECK(second.kept == 2);
  CHECK(entriesIn(store.folder()) == 2);
}

TEST_CASE("cleanup removes an ordering file left by a toold that died, an hour after its last write",
          "[output_store]") {
  TempDir data("output_store_test");
  OutputStore store(data.path());
  const fs::path kept = store.retain("kept").path;
  const fs::path leftover = toold::core::orderingPathFor(store.folder() / "tool_dead");
  const fs::path inProgress = toold::core::orderingPathFor(store.folder() / "tool_busy");
  CHECK(leftover.filename() == ".tool_dead.ordering");
  std::ofstream(leftover) << "head and a ring";
  std::ofstream(inProgress) << "being put in order";
  const auto now = fs::file_time_type::clock::now();
  fs::last_write_time(leftover, now - std::chrono::minutes(61));
  fs::last_write_time(inProgress, now - std::chrono::minutes(5));

  const auto report = store.cleanup(now);
  CHECK(report.deleted == 1);
  CHECK(report.failed == 0);
  CHECK_FALSE(fs::exists(leftover));
  CHECK(fs::exists(inProgress));
  CHECK(fs::exists(kept));
  CHECK(store.keptBytes() == 4); // neither ordering file is counted as a kept output
}

TEST_CASE("cleanup of a folder that does not exist yet does nothing", "[output_store]") {
  TempDir data("output_store_test");
  OutputStore store(data.path());
  const auto report = store.cleanup(fs::file_time_type::clock::now());
  CHECK(report.deleted == 0);
  CHECK(report.kept == 0);
  CHECK(report.failed == 0);
  CHECK_FALSE(fs::exists(store.folder()));
}

TEST_CASE("retain keeps the head and tail of a text over the file bound, and says so", "[output_store]") {
  TempDir data("output-store");
  OutputStore store(data.path(), toold::core::RetentionLimits{1 << 20, 10});
  const auto kept = store.retain("0123456789abcdefghij");
  CHECK(kept.part.totalBytes == 20);
  CHECK(kept.part.headBytes == 5);
  CHECK(kept.part.tailBytes == 5);
  CHECK(readFile(kept.path) ==
        "01234\n\n... 10 bytes left out here: this file keeps the first 5 and the last 5 bytes of 20 ...\n\nfghij");
  const auto whole = store.retain("0123456789");
  CHECK(whole.part.whole());
  CHECK(readFile(whole.path) == "0123456789");
}

TEST_CASE("retain removes the oldest kept files once the folder is over its budget", "[output_store]") {
  TempDir data("output-store");
  OutputStore store(data.path(), toold::core::RetentionLimits{25, 1 << 20});
  // Three texts of one size, each different: the same text again would name its file again.
  const fs::path first = store.retain("0123456789").path;
  const fs::path second = store.retain("abcdefghij").path;
  CHECK(store.keptBytes() == 20);
  const fs::path third = store.retain("ABCDEFGHIJ").path;
  CHECK_FALSE(fs::exists(first));
  CHECK(fs::exists(second));
  CHECK(fs::exists(third));
  CHECK(store.keptBytes() == 20);
  // One text larger than the whole budget is kept all the same; everything older goes.
  const fs::path large = store.retain(std::string(40, 'x')).path;
  CHECK(fs::exists(large));
  CHECK_FALSE(fs::exists(second));
  CHECK_FALSE(fs::exists(third));
  CHECK(store.keptBytes() == 40);
}

TEST_CASE("the store counts what the folder held before it, and never removes a file being written", "[output_store]") {
  TempDir data("output-store");
  fs::path old;
  {
    OutputStore earlier(data.path());
    old = earlier.retain(std::string(30, 'o')).path;
  }
  // Found on disk, it goes only once quiet: an old one, as another toold's would be after a minute.
  fs::last_write_time(old, fs::file_time_type::clock::now() - std::chrono::minutes(5));
  OutputStore store(data.path(), toold::core::RetentionLimits{45, 1 << 20});
  const fs::path log = store.folder() / "tool_0000000000000_log";
  { std::ofstream(log) << std::string(40, 'l'); }
  store.writing(log);
  const fs::path kept = store.retain(std::string(20, 'k')).path;
  CHECK_FALSE(fs::exists(old));
  CHECK(fs::exists(log)); // older than everything, but still being written
  CHECK(fs::exists(kept));
  store.finished(log, 40);
  CHECK(fs::exists(log)); // the one just finished is kept; others go, oldest first, to make room
  CHECK_FALSE(fs::exists(kept));
  const fs::path next = store.retain(std::string(20, 'n')).path;
  CHECK_FALSE(fs::exists(log));
  CHECK(fs::exists(next));
}

TEST_CASE("cleanup recounts the folder: files removed behind the store's back stop counting", "[output_store]") {
  TempDir data("output-store");
  OutputStore store(data.path(), toold::core::RetentionLimits{100, 1 << 20});
  const fs::path a = store.retain(std::string(60, 'a')).path;
  fs::remove(a);
  store.cleanup(fs::file_time_type::clock::now());
  CHECK(store.keptBytes() == 0);
  store.retain(std::string(30, 'b'));
  CHECK(store.keptBytes() == 30);
}
