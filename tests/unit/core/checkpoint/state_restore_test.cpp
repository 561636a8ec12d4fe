#include "core/checkpoint/state_restore.h"

#include "core/files/change_journal.h"
#include "tests/support/file_contents.h"
#include "tests/support/temp_dir.h"
#include "tests/unit/core/checkpoint/checkpoint_fixtures.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <fcntl.h>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace toold::core;
using toold::testing::TempDir;
using toold::testing::writeFile;

namespace {

// A workspace with a checkpoint around one "call": `before` and `after` hold the records of every
// path the call touched, in the store, as a checkpoint keeps them.
struct Checkpointed {
  TempDir dir{"restore_ws"};
  TempDir storeDir{"restore_store"};
  ChunkStore store{storeDir.path()};
  int fd = ::open(dir.path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  WorkspaceState before, after;         ///< the touched paths, as a checkpoint records them
  WorkspaceState treeBefore, treeAfter; ///< the whole tree, to compare with
  std::vector<std::string> paths;
  ~Checkpointed() { ::close(fd); }
  fs::path operator/(const std::string& path) const { return dir.path() / path; }
  WorkspaceState tree() const { return toold::testing::recordTree(fd, dir.path()); }

  WorkspaceState record(const std::vector<std::string>& which) {
    WorkspaceState state;
    for (const auto& path : which) {
      auto recorded = recordPath(fd, path, &store);
      REQUIRE(recorded.index() == 0);
      if (auto& record = std::get<0>(recorded)) state.emplace(path, *record);
    }
    return state;
  }
};

// Stamps differ after a restore (new files); what must match is kind, content and mode.
void requireSameState(const WorkspaceState& actual, const WorkspaceState& wanted) {
  std::set<std::string> actualPaths, wantedPaths;
  for (const auto& [path, record] : actual) actualPaths.insert(path);
  for (const auto& [path, record] : wanted) wantedPaths.insert(path);
  REQUIRE(actualPaths == wantedPaths);
  for (const auto& [path, record] : wanted) {
    INFO(path);
    CHECK(actual.at(path).sameState(record));
  }
}

// The starting tree, then a call that edits, deletes, creates (in a new folder), renames,
// chmods, retargets a link, removes a folder and a tree of them, and makes nested folders.
void makeTreeAndChangeIt(Checkpointed& ws) {
  fs::create_directories(ws / "src");
  fs::create_directories(ws / "empty");
  writeFile(ws / "src/main.cpp", toold::testing::joined(toold::testing::sourceLines(40000)));
  writeFile(ws / "notes.txt", std::string("bytes\0with nul\n", 15));
  writeFile(ws / "run.sh", "#!/bin/sh\necho hi\n");
  ::chmod((ws / "run.sh").c_str(), 0755);
  writeFile(ws / "old.txt", "to be renamed\n");
  fs::create_symlink("src/main.cpp", ws / "link");
  fs::create_directories(ws / "tree/a");
  ::chmod((ws / "tree/a").c_str(), 0700);
  writeFile(ws / "tree/a/b.txt", "deep");
  ws.paths = {"src/main.cpp", "notes.txt", "run.sh", "old.txt", "renamed.txt", "link", "gen", "gen/out.o",
              "empty", "tree", "tree/a", "tree/a/b.txt", "gen/sub", "gen/sub/deep.o"};
  ws.before = ws.record(ws.paths);
  ws.treeBefore = ws.tree();

  auto lines = toold::testing::sourceLines(40000);
  lines[100] = "    changed();\n";
  writeFile(ws / "src/main.cpp", toold::testing::joined(lines));
  fs::remove(ws / "notes.txt");
  ::chmod((ws / "run.sh").c_str(), 0700);
  fs::rename(ws / "old.txt", ws / "renamed.txt");
  fs::remove(ws / "link");
  fs::create_symlink("run.sh", ws / "link");
  fs::create_directories(ws / "gen");
  writeFile(ws / "gen/out.o", "object");
  fs::remove(ws / "empty");
  fs::remove_all(ws / "tree");
  fs::create_directories(ws / "gen/sub");
  writeFile(ws / "gen/sub/deep.o", "made deep");
  ws.after = ws.record(ws.paths);
  ws.treeAfter = ws.tree();
}

} // namespace

TEST_CASE("state restore: a call's changes are undone exactly, and redone", "[checkpoint]") {
  Checkpointed ws;
  makeTreeAndChangeIt(ws);
  REQUIRE(diffStates(ws.before, ws.after).size() == 13);

  const RestoreResult undone = restoreState(ws.fd, ws.paths, ws.before, ws.after, ws.store);
  REQUIRE(undone.error == "");
  CHECK(undone.conflicts.empty());
  requireSameState(ws.tree(), ws.treeBefore);
  CHECK(fs::read_symlink(ws / "link") == "src/main.cpp");
  CHECK(diffStates(ws.record(ws.paths), ws.before).empty());

  // Redo is the same restore the other way.
  const RestoreResult redone = restoreState(ws.fd, ws.paths, ws.after, ws.before, ws.store);
  REQUIRE(redone.error == "");
  requireSameState(ws.tree(), ws.treeAfter);
  CHECK(fs::read_symlink(ws / "link") == "run.sh");
}

TEST_CASE("state restore: a path changed outside the session refuses the whole restore", "[checkpoint]") {
  Checkpointed ws;
  makeTreeAndChangeIt(ws);
  SECTION("an edit") { writeFile(ws / "src/main.cpp", "a person's later edit\n"); }
  SECTION("a chmod") { ::chmod((ws / "run.sh").c_str(), 0600); }
  SECTION("a file where the call deleted one") { writeFile(ws / "notes.txt", "recreated by hand\n"); }
  SECTION("a deletion") { fs::remove(ws / "src/main.cpp"); }
  const WorkspaceState present = ws.tree();
  const RestoreResult result = restoreState(ws.fd, ws.paths, ws.before, ws.after, ws.store);
  CHECK_THAT(result.error, Catch::Contains("outside this session"));
  CHECK(result.conflicts.size() == 1);
  CHECK(result.restored.empty());
  requireSameState(ws.tree(), present);
}

TEST_CASE("state restore: an edit made while the restore is prepared refuses it too", "[checkpoint]") {
  Checkpointed ws;
  makeTreeAndChangeIt(ws);
  RestoreOptions options;
  // The hook runs before the first committing step, after the paths were checked and staged.
  options.failBeforeStep = [&](std::size_t step) {
    if (step == 0) writeFile(ws / "src/main.cpp", "typed while the restore was staging\n");
    return false;
  };
  const RestoreResult result = restoreState(ws.fd, ws.paths, ws.before, ws.after, ws.store, options);
  CHECK_THAT(result.error, Catch::Contains("while the restore was being prepared"));
  CHECK(result.conflicts == std::vector<std::string>{"src/main.cpp"});
  CHECK(toold::testing::contentOf(ws / "src/main.cpp") == "typed while the restore was staging\n");
  WorkspaceState wanted = ws.treeAfter;
  wanted.erase("src/main.cpp");
  WorkspaceState actual = ws.tree();
  actual.erase("src/main.cpp");
  requireSameState(actual, wanted);
}

TEST_CASE("state restore: a path already as recorded is left alone, and is no conflict", "[checkpoint]") {
  Checkpointed ws;
  makeTreeAndChangeIt(ws);
  fs::remove(ws / "gen/out.o"); // the person removed what the call created: nothing to overwrite
  const RestoreResult result = restoreState(ws.fd, ws.paths, ws.before, ws.after, ws.store);
  REQUIRE(result.error == "");
  CHECK(std::find(result.restored.begin(), result.restored.end(), "gen/out.o") == result.restored.end());
  requireSameState(ws.tree(), ws.treeBefore);
}

TEST_CASE("state restore: a failure at any step leaves the workspace as it was", "[checkpoint]") {
  std::size_t failing = 0;
  for (;; ++failing) {
    Checkpointed ws;
    makeTreeAndChangeIt(ws);
    const auto names = [&] {
      std::set<std::string> all;
      for (auto& entry : fs::recursive_directory_iterator(ws.dir.path())) all.insert(entry.path().string());
      return all;
    };
    const auto namesBefore = names();
    RestoreOptions options;
    bool injected = false;
    options.failBeforeStep = [&](std::size_t step) { return injected = injected || step == failing; };
    const RestoreResult result = restoreState(ws.fd, ws.paths, ws.before, ws.after, ws.store, options);
    if (!injected) {
      // Past the last step: the restore went through.
      REQUIRE(result.error == "");
      requireSameState(ws.tree(), ws.treeBefore);
      break;
    }
    INFO("failing before step " << failing << ": " << result.error);
    CHECK_FALSE(result.error.empty());
    CHECK(result.error.find("could not be put back") == std::string::npos);
    requireSameState(ws.tree(), ws.treeAfter);
    CHECK(names() == namesBefore); // no staged file, kept link or folder left behind
  }
  CHECK(failing > 8);
}

TEST_CASE("state restore: an evicted chunk fails the restore before anything is touched", "[checkpoint]") {
  Checkpointed ws;
  makeTreeAndChangeIt(ws);
  const FileRecord& main = ws.before.at("src/main.cpp");
  CHECK(ws.store.remove(main.chunks.at(main.chunks.size() / 2)));
  const RestoreResult result = restoreState(ws.fd, ws.paths, ws.before, ws.after, ws.store);
  CHECK_THAT(result.error, Catch::Contains("evicted"));
  requireSameState(ws.tree(), ws.treeAfter);
}

TEST_CASE("state restore: journalled, the journal is gone once the restore is done", "[checkpoint]") {
  Checkpointed ws;
  TempDir journalDir("restore_journal");
  ChangeJournal journal(journalDir.path() / "journal");
  makeTreeAndChangeIt(ws);
  RestoreOptions options;
  options.journal = &journal;
  options.rootPath = ws.dir.path();
  SECTION("done") {
    REQUIRE(restoreState(ws.fd, ws.paths, ws.before, ws.after, ws.store, options).error == "");
    requireSameState(ws.tree(), ws.treeBefore);
  }
  SECTION("failed and undone") {
    options.failBeforeStep = [](std::size_t step) { return step == 3; };
    CHECK_FALSE(restoreState(ws.fd, ws.paths, ws.before, ws.after, ws.store, options).error.empty());
    requireSameState(ws.tree(), ws.treeAfter);
  }
  std::error_code ec;
  std::size_t journals = 0;
  for (auto& entry : fs::directory_iterator(journalDir.path() / "journal", ec))
    journals += entry.path().extension() == ".journal" ? 1 : 0;
  CHECK(journals == 0);
}
