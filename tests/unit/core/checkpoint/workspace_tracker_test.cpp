#include "core/checkpoint/workspace_tracker.h"

#include "tests/support/temp_dir.h"
#include "tests/unit/core/checkpoint/checkpoint_fixtures.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdio>
#include <fcntl.h>
#include <future>
#include <sys/resource.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace toold::core;
using toold::testing::TempDir;
using toold::testing::writeFile;

namespace {

// A workspace, a store beside it, and a tracker over them, started and with its baseline taken
// unless a test asks otherwise.
struct Tracked {
  TempDir dir{"tracker_ws"};
  TempDir storeDir{"tracker_store"};
  ChunkStore store{storeDir.path() / "chunks"};
  int fd = ::open(dir.path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  std::unique_ptr<WorkspaceTracker> tracker;

  ~Tracked() {
    tracker.reset();
    ::close(fd);
  }
  fs::path operator/(const std::string& path) const { return dir.path() / path; }

  void start(WorkspaceTrackerOptions options = {}, bool wait = true) {
    tracker = std::make_unique<WorkspaceTracker>(fd, dir.path(), store, std::move(options));
    tracker->start();
    if (wait) REQUIRE(tracker->waitForBaseline(std::chrono::seconds(20)));
  }
  void restart(WorkspaceTrackerOptions options = {}) {
    tracker.reset();
    start(std::move(options));
  }
  /// The path as it is now, its content in the store (the chunks the tracker also stored).
  FileRecord record(const std::string& path) {
    auto recorded = recordPath(fd, path, &store);
    REQUIRE(recorded.index() == 0);
    REQUIRE(std::get<0>(recorded).has_value());
    return *std::get<0>(recorded);
  }
  std::string content(const FileRecord& record) {
    auto bytes = recordedContent(record, store);
    REQUIRE(bytes.index() == 0);
    return std::get<0>(bytes);
  }
};

std::vector<std::string> keys(const WorkspaceState& state) {
  std::vector<std::string> paths;
  for (const auto& [path, record] : state) paths.push_back(path);
  return paths;
}

using Paths = std::vector<std::string>;

// Files made "long ago", so that a kept baseline trusts their stamps (a stamp within two seconds of
// the baseline's writing is not trusted).
void age(const fs::path& root) {
  const timespec old[2] = {{1'600'000'000, 0}, {1'600'000'000, 0}};
  for (const auto& entry : fs::recursive_directory_iterator(root))
    ::utimensat(AT_FDCWD, entry.path().c_str(), old, AT_SYMLINK_NOFOLLOW);
}

} // namespace

TEST_CASE("workspace tracker: a file created, modified and deleted during a call, with both versions",
          "[checkpoint][tracker]") {
  Tracked ws;
  writeFile(ws / "edited.txt", "old text\n");
  writeFile(ws / "removed.txt", "going\n");
  ws.start();
  const FileRecord editedBefore = ws.record("edited.txt");
  const FileRecord removedBefore = ws.record("removed.txt");

  const auto mark = ws.tracker->begin();
  writeFile(ws / "edited.txt", "new text\n");
  writeFile(ws / "created.txt", "fresh\n");
  fs::remove(ws / "removed.txt");
  const TrackedChanges changes = ws.tracker->end(mark);

  CHECK(keys(changes.before) == Paths{"edited.txt", "removed.txt"});
  CHECK(keys(changes.after) == Paths{"created.txt", "edited.txt"});
  CHECK(changes.before.at("edited.txt") == editedBefore);
  CHECK(changes.before.at("removed.txt") == removedBefore);
  CHECK(changes.after.at("edited.txt") == ws.record("edited.txt"));
  CHECK(changes.after.at("created.txt") == ws.record("created.txt"));
  CHECK(ws.content(changes.before.at("edited.txt")) == "old text\n");
  CHECK(ws.content(changes.before.at("removed.txt")) == "going\n");
  CHECK(changes.unrestorable.empty());
  CHECK_FALSE(changes.concurrent);
  CHECK(changes.note.empty());

  // The baseline took the new versions: the next call starts from them.
  const auto next = ws.tracker->begin();
  writeFile(ws / "created.txt", "fresher\n");
  const TrackedChanges second = ws.tracker->end(next);
  CHECK(keys(second.before) == Paths{"created.txt"});
  CHECK(ws.content(second.before.at("created.txt")) == "fresh\n");
}

TEST_CASE("workspace tracker: a rename and a chmod", "[checkpoint][tracker]") {
  Tracked ws;
  writeFile(ws / "old-name.txt", "moving content\n");
  writeFile(ws / "script.sh", "echo hi\n");
  ::chmod((ws / "script.sh").c_str(), 0644);
  ws.start();
  const FileRecord moved = ws.record("old-name.txt");

  const auto mark = ws.tracker->begin();
  fs::rename(ws / "old-name.txt", ws / "new-name.txt");
  ::chmod((ws / "script.sh").c_str(), 0755);
  const TrackedChanges changes = ws.tracker->end(mark);

  CHECK(keys(changes.before) == Paths{"old-name.txt", "script.sh"});
  CHECK(keys(changes.after) == Paths{"new-name.txt", "script.sh"});
  CHECK(changes.before.at("old-name.txt") == moved);
  CHECK(changes.after.at("new-name.txt") == ws.record("new-name.txt"));
  const auto diff = diffStates(changes.before, changes.after);
  REQUIRE(diff.size() == 2);
  CHECK(diff[0].kind == ChangeKind::Renamed);
  CHECK(diff[0].fromPath == "old-name.txt");
  CHECK(diff[1].kind == ChangeKind::ModeChanged);
  CHECK(changes.before.at("script.sh").mode == 0644);
  CHECK(changes.after.at("script.sh").mode == 0755);
}

TEST_CASE("workspace tracker: a folder tree made and another removed, with what was in them",
          "[checkpoint][tracker]") {
  Tracked ws;
  fs::create_directories(ws / "old/deep");
  writeFile(ws / "old/a.txt", "a\n");
  writeFile(ws / "old/deep/b.txt", "b\n");
  ws.start();
  const FileRecord a = ws.record("old/a.txt"), b = ws.record("old/deep/b.txt");
  const FileRecord oldFolder = ws.record("old"), deepFolder = ws.record("old/deep");

  const auto mark = ws.tracker->begin();
  // Made and filled at once, before any event of the new folders can have been read.
  fs::create_directories(ws / "new/x/y");
  writeFile(ws / "new/x/y/c.txt", "c\n");
  writeFile(ws / "new/d.txt", "d\n");
  ::symlink("x/y/c.txt", (ws / "new/link").c_str());
  fs::remove_all(ws / "old");
  const TrackedChanges changes = ws.tracker->end(mark);

  CHECK(keys(changes.before) == Paths{"old", "old/a.txt", "old/deep", "old/deep/b.txt"});
  CHECK(changes.before.at("old/a.txt") == a);
  CHECK(changes.before.at("old/deep/b.txt") == b);
  CHECK(changes.before.at("old") == oldFolder);
  CHECK(changes.before.at("old/deep") == deepFolder);
  CHECK(keys(changes.after) == Paths{"new", "new/d.txt", "new/link", "new/x", "new/x/y", "new/x/y/c.txt"});
  CHECK(changes.after.at("new/x/y/c.txt") == ws.record("new/x/y/c.txt"));
  CHECK(changes.after.at("new/link").kind == EntryKind::Symlink);
  CHECK(changes.after.at("new/link").linkTarget == "x/y/c.txt");
  CHECK(changes.unrestorable.empty());

  // The new folders are watched: a change deep inside them is seen by the next call.
  const auto next = ws.tracker->begin();
  writeFile(ws / "new/x/y/c.txt", "changed\n");
  CHECK(keys(ws.tracker->end(next).after) == Paths{"new/x/y/c.txt"});
}

TEST_CASE("workspace tracker: a change made while no call runs is not the next call's", "[checkpoint][tracker]") {
  Tracked ws;
  writeFile(ws / "file.txt", "first\n");
  ws.start();
  writeFile(ws / "file.txt", "by a person\n");
  writeFile(ws / "their-new-file.txt", "x\n");

  const auto mark = ws.tracker->begin();
  const TrackedChanges nothing = ws.tracker->end(mark);
  CHECK(nothing.before.empty());
  CHECK(nothing.after.empty());

  // The baseline took the person's version: it is what the next call's change started from.
  const auto next = ws.tracker->begin();
  writeFile(ws / "file.txt", "by the call\n");
  const TrackedChanges changes = ws.tracker->end(next);
  REQUIRE(keys(changes.before) == Paths{"file.txt"});
  CHECK(ws.content(changes.before.at("file.txt")) == "by a person\n");
}

TEST_CASE("workspace tracker: ignored paths and .git are not reported", "[checkpoint][tracker]") {
  Tracked ws;
  writeFile(ws / ".gitignore", "build/\n*.log\n");
  fs::create_directories(ws / "build");
  fs::create_directories(ws / ".git/objects");
  ws.start();

  const auto mark = ws.tracker->begin();
  writeFile(ws / "build/out.o", "binary\n");
  fs::create_directories(ws / "build/sub");
  writeFile(ws / "build/sub/more.o", "binary\n");
  writeFile(ws / "run.log", "log\n");
  writeFile(ws / ".git/objects/ab", "object\n");
  writeFile(ws / "kept.txt", "kept\n");
  const TrackedChanges changes = ws.tracker->end(mark);
  CHECK(keys(changes.after) == Paths{"kept.txt"});
  CHECK(changes.before.empty());
}

TEST_CASE("workspace tracker: a file tool's told change is not reported again", "[checkpoint][tracker]") {
  Tracked ws;
  writeFile(ws / "edited.txt", "before\n");
  ws.start();

  SECTION("told during a call") {
    const auto mark = ws.tracker->begin();
    writeFile(ws / "edited.txt", "by the edit tool\n");
    ws.tracker->told("edited.txt", ws.record("edited.txt"));
    writeFile(ws / "by-bash.txt", "bash\n");
    const TrackedChanges changes = ws.tracker->end(mark);
    CHECK(keys(changes.after) == Paths{"by-bash.txt"});
    CHECK_FALSE(changes.concurrent);
  }
  SECTION("told with no call running, its event read by the next call") {
    writeFile(ws / "edited.txt", "by the edit tool\n");
    ws.tracker->told("edited.txt", ws.record("edited.txt"));
    const auto mark = ws.tracker->begin();
    writeFile(ws / "edited.txt", "then by bash\n");
    const TrackedChanges changes = ws.tracker->end(mark);
    REQUIRE(keys(changes.before) == Paths{"edited.txt"});
    CHECK(ws.content(changes.before.at("edited.txt")) == "by the edit tool\n");
  }
  SECTION("told a file in folders the tool made") {
    const auto mark = ws.tracker->begin();
    fs::create_directories(ws / "made/by");
    writeFile(ws / "made/by/tool.txt", "new\n");
    ws.tracker->told("made/by/tool.txt", ws.record("made/by/tool.txt"));
    const TrackedChanges changes = ws.tracker->end(mark);
    CHECK(changes.before.empty());
    CHECK(changes.after.empty());
    // The folders are watched and in the baseline: removing them later is a change from them.
    const auto next = ws.tracker->begin();
    fs::remove_all(ws / "made");
    const TrackedChanges removal = ws.tracker->end(next);
    CHECK(keys(removal.before) == Paths{"made", "made/by", "made/by/tool.txt"});
  }
  SECTION("a removal told") {
    const auto mark = ws.tracker->begin();
    fs::remove(ws / "edited.txt");
    ws.tracker->told("edited.txt", std::nullopt);
    const TrackedChanges changes = ws.tracker->end(mark);
    CHECK(changes.before.empty());
    CHECK(changes.after.empty());
  }
}

TEST_CASE("workspace tracker: overlapping calls are marked concurrent", "[checkpoint][tracker]") {
  Tracked ws;
  ws.start();
  const auto first = ws.tracker->begin();
  writeFile(ws / "one.txt", "1\n");
  const auto second = ws.tracker->begin();
  writeFile(ws / "two.txt", "2\n");
  const TrackedChanges secondChanges = ws.tracker->end(second);
  const TrackedChanges firstChanges = ws.tracker->end(first);
  CHECK(secondChanges.concurrent);
  CHECK(firstChanges.concurrent);
  CHECK(keys(secondChanges.after) == Paths{"two.txt"});
  CHECK(keys(firstChanges.after) == Paths{"one.txt", "two.txt"});

  const auto alone = ws.tracker->begin();
  writeFile(ws / "three.txt", "3\n");
  CHECK_FALSE(ws.tracker->end(alone).concurrent);
}

TEST_CASE("workspace tracker: lost events fall back to a stamp scan, and say so", "[checkpoint][tracker]") {
  Tracked ws;
  fs::create_directories(ws / "sub/deeper");
  writeFile(ws / "sub/deeper/file.txt", "old\n");
  writeFile(ws / "top.txt", "top\n");

  SECTION("the event queue overflowed") {
    ws.start();
    const auto mark = ws.tracker->begin();
    writeFile(ws / "sub/deeper/file.txt", "new!\n");
    ws.tracker->simulateOverflow();
    const TrackedChanges changes = ws.tracker->end(mark);
    CHECK(keys(changes.after) == Paths{"sub/deeper/file.txt"});
    CHECK(ws.content(changes.before.at("sub/deeper/file.txt")) == "old\n");
    CHECK(changes.note.find("stamp scan") != std::string::npos);
    CHECK(changes.note.find("overflowed") != std::string::npos);
    // Once: the next call is found by its events again.
    const auto next = ws.tracker->begin();
    writeFile(ws / "top.txt", "top!\n");
    const TrackedChanges after = ws.tracker->end(next);
    CHECK(keys(after.after) == Paths{"top.txt"});
    CHECK(after.note.empty());
  }
  SECTION("the watch limit was reached: only the root is watched") {
    WorkspaceTrackerOptions options;
    options.watchLimit = 1;
    ws.start(options);
    CHECK(ws.tracker->progress().watches == 1);
    CHECK_FALSE(ws.tracker->progress().scanning.empty());
    writeFile(ws / "sub/deeper/outside.txt", "a person's\n");
    const auto mark = ws.tracker->begin(); // scans: the person's file is the baseline's
    writeFile(ws / "sub/deeper/file.txt", "newer\n");
    fs::create_directories(ws / "sub/made");
    writeFile(ws / "sub/made/x.txt", "x\n");
    const TrackedChanges changes = ws.tracker->end(mark);
    CHECK(keys(changes.after) == Paths{"sub/deeper/file.txt", "sub/made", "sub/made/x.txt"});
    CHECK(keys(changes.before) == Paths{"sub/deeper/file.txt"});
    CHECK(changes.note.find("stamp scan") != std::string::npos);
    CHECK(changes.note.find("limit of 1 watches") != std::string::npos);
  }
}

TEST_CASE("workspace tracker: a path changed before the baseline reached it is not restorable",
          "[checkpoint][tracker]") {
  Tracked ws;
  writeFile(ws / "early.txt", "never recorded\n");
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  WorkspaceTrackerOptions options;
  options.beforeBaseline = [released] { released.wait_for(std::chrono::seconds(30)); };
  ws.start(options, false);
  for (int i = 0; i < 2000 && !ws.tracker->progress().watching; ++i) ::usleep(5000);
  REQUIRE(ws.tracker->progress().watching);

  const auto mark = ws.tracker->begin();
  writeFile(ws / "early.txt", "changed\n");
  writeFile(ws / "made.txt", "made\n");
  const TrackedChanges changes = ws.tracker->end(mark);
  release.set_value();
  CHECK(changes.unrestorable == Paths{"early.txt"});
  CHECK(changes.before.empty());
  // A path the listing did not find was absent: its creation is restorable (by removing it).
  CHECK(keys(changes.after) == Paths{"early.txt", "made.txt"});
  REQUIRE(ws.tracker->waitForBaseline(std::chrono::seconds(20)));
}

TEST_CASE("workspace tracker: a restart reads only the files whose stamp changed", "[checkpoint][tracker]") {
  Tracked ws;
  fs::create_directories(ws / "src");
  for (int i = 0; i < 20; ++i) writeFile(ws / ("src/f" + std::to_string(i) + ".txt"), "file " + std::to_string(i) + "\n");
  age(ws.dir.path());
  ws.start();
  CHECK(ws.tracker->progress().filesRead == 20);
  ws.tracker->stop(); // writes the baseline to the store

  writeFile(ws / "src/f3.txt", "changed while toold was not running\n");
  ws.restart();
  const auto progress = ws.tracker->progress();
  CHECK(progress.filesRead == 1);
  CHECK(progress.pathsReused == 20); // 19 files and the folder
  CHECK(progress.baselinePaths == 21);

  // The reused records are the baseline: a call's change starts from them.
  const auto mark = ws.tracker->begin();
  writeFile(ws / "src/f5.txt", "edited\n");
  const TrackedChanges changes = ws.tracker->end(mark);
  REQUIRE(keys(changes.before) == Paths{"src/f5.txt"});
  CHECK(ws.content(changes.before.at("src/f5.txt")) == "file 5\n");
}

TEST_CASE("workspace tracker: begin and end from several threads at once", "[checkpoint][tracker]") {
  Tracked ws;
  ws.start();
  std::vector<std::thread> threads;
  std::atomic<int> missing{0};
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&ws, &missing, t] {
      for (int round = 0; round < 25; ++round) {
        const std::string name = "t" + std::to_string(t) + "_" + std::to_string(round) + ".txt";
        const auto mark = ws.tracker->begin();
        writeFile(ws / name, "x\n");
        if (!ws.tracker->end(mark).after.count(name)) ++missing;
      }
    });
  for (auto& thread : threads) thread.join();
  CHECK(missing == 0);
}

// ---- measurements (docs/checkpoints.md quotes them), hidden from CTest ----

namespace {

double cpuSeconds() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// `files` files of a few hundred bytes of source-like text, each different, about 48 to a folder
// in two levels of folders (100,000 files: 2,100 folders), as the search benchmark's trees.
void generateTree(const fs::path& root, std::size_t files) {
  const std::size_t folders = files / 48;
  const std::size_t top = std::max<std::size_t>(1, folders / 105);
  const auto lines = toold::testing::sourceLines(64 * 1024);
  std::size_t made = 0;
  for (std::size_t i = 0; made < files; ++i) {
    const fs::path folder = root / ("d" + std::to_string(i % top)) / ("s" + std::to_string(i / top));
    fs::create_directories(folder);
    for (std::size_t j = 0; j < 48 && made < files; ++j, ++made) {
      std::string text = "// file " + std::to_string(made) + "\n";
      for (std::size_t k = 0; k < 4 + made % 8; ++k) text += lines[(made * 7 + k) % lines.size()];
      writeFile(folder / ("f" + std::to_string(j) + ".cpp"), text);
    }
  }
}

} // namespace

TEST_CASE("workspace tracker: cost of the watches, the baseline and a call", "[.checkpoint-measure]") {
  std::printf("fs.inotify.max_user_watches: %zu\n", FolderWatches::systemWatchLimit());
  for (std::size_t files : {std::size_t{10'000}, std::size_t{100'000}}) {
    Tracked ws;
    generateTree(ws.dir.path(), files);
    ::sync();
    auto cpu = cpuSeconds();
    auto wall = std::chrono::steady_clock::now();
    ws.tracker = std::make_unique<WorkspaceTracker>(ws.fd, ws.dir.path(), ws.store);
    ws.tracker->start();
    while (!ws.tracker->progress().watching) ::usleep(1000);
    const double watchCpu = cpuSeconds() - cpu;
    REQUIRE(ws.tracker->waitForBaseline(std::chrono::minutes(10)));
    const double baselineWall = millisecondsSince(wall), baselineCpu = cpuSeconds() - cpu;
    const auto progress = ws.tracker->progress();
    std::printf("%zu files: %zu watches; listing and watches %.0f ms wall, %.0f ms CPU; baseline %.0f ms wall in "
                "all, %.0f ms CPU, %llu files read, store %.1f MB\n",
                files, progress.watches, static_cast<double>(progress.watchSetup.count()) / 1000.0, watchCpu * 1000,
                baselineWall, baselineCpu * 1000, static_cast<unsigned long long>(progress.filesRead),
                static_cast<double>(ws.store.storedBytes()) / 1e6);

    constexpr int kRounds = 200;
    cpu = cpuSeconds();
    wall = std::chrono::steady_clock::now();
    for (int i = 0; i < kRounds; ++i) ws.tracker->end(ws.tracker->begin());
    std::printf("  begin+end, nothing changed: %.1f us wall, %.1f us CPU\n", millisecondsSince(wall) * 1000 / kRounds,
                (cpuSeconds() - cpu) * 1e6 / kRounds);

    double spent = 0;
    const fs::path edited = ws.dir.path() / "d0" / "s1" / "f7.cpp";
    for (int i = 0; i < kRounds; ++i) {
      const auto start = std::chrono::steady_clock::now();
      const auto mark = ws.tracker->begin();
      spent += millisecondsSince(start);
      writeFile(edited, "// edit " + std::to_string(i) + "\n" + toold::testing::joined(toold::testing::sourceLines(800)));
      const auto again = std::chrono::steady_clock::now();
      const auto changes = ws.tracker->end(mark);
      spent += millisecondsSince(again);
      REQUIRE(changes.after.size() == 1);
    }
    std::printf("  begin+end, one 800-byte file changed: %.1f us wall (the write not counted)\n", spent * 1000 / kRounds);

    cpu = cpuSeconds();
    wall = std::chrono::steady_clock::now();
    REQUIRE(ws.tracker->persistBaseline().empty());
    std::printf("  writing the baseline to the store: %.0f ms wall, %.0f ms CPU\n", millisecondsSince(wall),
                (cpuSeconds() - cpu) * 1000);
    ws.tracker.reset();
    // Old stamps, so the kept baseline is trusted (a stamp within two seconds of it is not).
    ::usleep(2'100'000);
    cpu = cpuSeconds();
    wall = std::chrono::steady_clock::now();
    ws.tracker = std::make_unique<WorkspaceTracker>(ws.fd, ws.dir.path(), ws.store);
    ws.tracker->start();
    REQUIRE(ws.tracker->waitForBaseline(std::chrono::minutes(10)));
    const auto restarted = ws.tracker->progress();
    std::printf("  restart with the kept baseline: %.0f ms wall, %.0f ms CPU, %llu files read, %llu reused\n",
                millisecondsSince(wall), (cpuSeconds() - cpu) * 1000,
                static_cast<unsigned long long>(restarted.filesRead),
                static_cast<unsigned long long>(restarted.pathsReused));
  }
}
