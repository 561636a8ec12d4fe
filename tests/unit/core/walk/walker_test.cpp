// The parallel walker: which entries it visits (hidden ones, never `.git`, not skipped names, not
// ignored ones), how deep, what the visitor's answers do, symbolic links, errors, threads and
// cancellation. The order of visits is not deterministic, so the tests compare sorted sets.
#include "core/walk/walker.h"
#include "tests/support/temp_dir.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;
using toold::core::walkTree;
using toold::core::WalkDecision;
using toold::core::WalkEntry;
using toold::core::WalkOptions;
using toold::core::WalkResult;
using toold::core::CancellationSource;
using toold::core::CancellationToken;
using toold::testing::TempDir;
using Paths = std::vector<std::string>;

namespace {

void write(const fs::path& path, const std::string& content = "x") {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << content;
}

struct Walked {
  Paths relatives; ///< sorted
  std::map<std::string, WalkEntry> entries;
  WalkResult result;
  std::size_t visits = 0;
};

/// Walks `root` and collects every visited entry; `decide` answers for each one (from any thread).
Walked walk(const fs::path& root, WalkOptions options,
            const std::function<WalkDecision(const WalkEntry&)>& decide = {},
            const CancellationToken& cancellation = {}) {
  Walked walked;
  std::mutex mutex;
  walked.result = walkTree(
      root, options,
      [&] {
        return [&](const WalkEntry& entry) {
          {
            std::lock_guard lock(mutex);
            ++walked.visits;
            walked.relatives.push_back(entry.relative);
            walked.entries[entry.relative] = entry;
          }
          return decide ? decide(entry) : WalkDecision::Continue;
        };
      },
      cancellation);
  std::sort(walked.relatives.begin(), walked.relatives.end());
  return walked;
}

WalkOptions plain(std::size_t threads = 2) {
  WalkOptions options;
  options.threads = threads;
  options.respectIgnores = false;
  return options;
}

/// A tree of `folders` folders (two levels) of `files` files each.
void makeWideTree(const fs::path& root, int folders, int files) {
  for (int folder = 0; folder < folders; ++folder)
    for (int file = 0; file < files; ++file)
      write(root / ("d" + std::to_string(folder)) / ("s" + std::to_string(folder % 3)) /
            ("f" + std::to_string(file) + ".txt"));
}

} // namespace

TEST_CASE("walker: visits every entry below the root, with its kind, depth and paths", "[walker]") {
  TempDir dir("walker");
  write(dir.path() / "a" / "b.txt");
  write(dir.path() / "a" / "c" / "d.txt");
  write(dir.path() / "e.txt");
  fs::create_directories(dir.path() / "empty");

  for (std::size_t threads : {1U, 2U}) {
    const auto walked = walk(dir.path(), plain(threads));
    CHECK(walked.relatives == Paths{"a", "a/b.txt", "a/c", "a/c/d.txt", "e.txt", "empty"});
    CHECK(walked.result.errors.empty());
    CHECK_FALSE(walked.result.quit);
    CHECK_FALSE(walked.result.cancelled);

    const auto& folder = walked.entries.at("a/c");
    CHECK(folder.isDirectory);
    CHECK_FALSE(folder.isFile);
    CHECK_FALSE(folder.isSymlink);
    CHECK(folder.depth == 1);
    CHECK(folder.name() == "c");
    CHECK(folder.path == dir.path() / "a" / "c");

    const auto& file = walked.entries.at("a/c/d.txt");
    CHECK(file.isFile);
    CHECK_FALSE(file.isDirectory);
    CHECK(file.depth == 2);
    CHECK(file.name() == "d.txt");
    CHECK(file.path == dir.path() / "a" / "c" / "d.txt");
    CHECK(walked.entries.at("e.txt").depth == 0);
    CHECK(walked.entries.at("e.txt").name() == "e.txt");
  }
}

TEST_CASE("walker: a root given with a trailing '/' or '.' still joins cleanly", "[walker]") {
  TempDir dir("walker");
  write(dir.path() / "a" / "b.txt");
  for (const auto& root : {fs::path(dir.path().string() + "/"), dir.path() / "."}) {
    const auto walked = walk(root, plain());
    CHECK(walked.relatives == Paths{"a", "a/b.txt"});
    CHECK(walked.entries.at("a/b.txt").path == dir.path() / "a" / "b.txt");
  }
}

TEST_CASE("walker: hidden files and folders are included", "[walker]") {
  TempDir dir("walker");
  write(dir.path() / ".env");
  write(dir.path() / ".config" / "settings.json");
  write(dir.path() / "src" / ".hidden");
  const auto walked = walk(dir.path(), plain());
  CHECK(walked.relatives == Paths{".config", ".config/settings.json", ".env", "src", "src/.hidden"});
}

TEST_CASE("walker: folders named .git are never visited, at any depth", "[walker]") {
  TempDir dir("walker");
  write(dir.path() / ".git" / "config");
  write(dir.path() / "sub" / ".git" / "HEAD");
  write(dir.path() / "sub" / "main.c");
  write(dir.path() / "module" / ".git", "gitdir: ../.git/modules/module"); // a file: kept
  const auto walked = walk(dir.path(), plain());
  CHECK(walked.relatives == Paths{"module", "module/.git", "sub", "sub/main.c"});
}

TEST_CASE("walker: skipFolderNames are folders never visited, wherever they are", "[walker]") {
  TempDir dir("walker");
  write(dir.path() / "node_modules" / "x" / "index.js");
  write(dir.path() / "app" / "node_modules" / "y.js");
  write(dir.path() / "app" / "main.js");
  write(dir.path() / "lib" / "node_modules"); // a file of that name is kept
  auto options = plain();
  options.skipFolderNames = {"node_modules", "target"};
  const auto walked = walk(dir.path(), options);
  CHECK(walked.relatives == Paths{"app", "app/main.js", "lib", "lib/node_modules"});
}

TEST_CASE("walker: maxDepth limits how deep the walk goes", "[walker]") {
  TempDir dir("walker");
  write(dir.path() / "a" / "b" / "c.txt");
  write(dir.path() / "top.txt");
  auto options = plain();

  options.maxDepth = 0;
  CHECK(walk(dir.path(), options).relatives == Paths{"a", "top.txt"});
  options.maxDepth = 1;
  CHECK(walk(dir.path(), options).relatives == Paths{"a", "a/b", "top.txt"});
  options.maxDepth = 2;
  CHECK(walk(dir.path(), options).relatives == Paths{"a", "a/b", "a/b/c.txt", "top.txt"});
  options.maxDepth = -1;
  CHECK(walk(dir.path(), options).relatives == Paths{"a", "a/b", "a/b/c.txt", "top.txt"});
}

TEST_CASE("walker: Skip keeps the walk out of a folder", "[walker]") {
  TempDir dir("walker");
  write(dir.path() / "vendor" / "lib.c");
  write(dir.path() / "vendor" / "deep" / "x.c");
  write(dir.path() / "src" / "main.c");
  write(dir.path() / "vendor.txt");
  const auto walked = walk(dir.path(), plain(), [](const WalkEntry& entry) {
    return entry.name().substr(0, 6) == "vendor" ? WalkDecision::Skip : WalkDecision::Continue;
  });
  CHECK(walked.relatives == Paths{"src", "src/main.c", "vendor", "vendor.txt"});
}

TEST_CASE("walker: Quit stops the walk early", "[walker]") {
  TempDir dir("walker");
  makeWideTree(dir.path(), 40, 25); // 40 + 40 + 1000 entries
  for (std::size_t threads : {1U, 2U, 4U}) {
    std::atomic<int> seen{0};
    const auto walked = walk(dir.path(), plain(threads), [&](const WalkEntry&) {
      return ++seen >= 10 ? WalkDecision::Quit : WalkDecision::Continue;
    });
    CHECK(walked.result.quit);
    CHECK_FALSE(walked.result.cancelled);
    CHECK(walked.visits >= 10);
    CHECK(walked.visits < 10 + 2 * threads); // at most a visit in flight on each other thread
  }
}

TEST_CASE("walker: symbolic links are reported as links and not followed by default", "[walker]") {
  TempDir dir("walker");
  write(dir.path() / "real" / "inside.txt");
  write(dir.path() / "file.txt");
  fs::create_directory_symlink("real", dir.path() / "folder-link");
  fs::create_symlink("file.txt", dir.path() / "file-link");
  fs::create_symlink("nowhere", dir.path() / "dangling");

  const auto walked = walk(dir.path(), plain());
  CHECK(walked.relatives == Paths{"dangling", "file-link", "file.txt", "folder-link", "real", "real/inside.txt"});
  for (const char* link : {"folder-link", "file-link", "dangling"}) {
    const auto& entry = walked.entries.at(link);
    CHECK(entry.isSymlink);
    CHECK_FALSE(entry.isDirectory);
    CHECK_FALSE(entry.isFile);
  }
  CHECK(walked.result.errors.empty());
}

TEST_CASE("walker: with followLinks a link to a folder is entered and a link to a file is a file", "[walker]") {
  TempDir dir("walker");
  write(dir.path() / "real" / "inside.txt");
  write(dir.path() / "file.txt");
  fs::create_directory_symlink("real", dir.path() / "folder-link");
  fs::create_symlink("file.txt", dir.path() / "file-link");
  fs::create_symlink("nowhere", dir.path() / "dangling");

  auto options = plain();
  options.followLinks = true;
  const auto walked = walk(dir.path(), options);
  CHECK(walked.relatives == Paths{"dangling", "file-link", "file.txt", "folder-link", "folder-link/inside.txt", "real",
                                  "real/inside.txt"});
  const auto& folderLink = walked.entries.at("folder-link");
  CHECK(folderLink.isSymlink);
  CHECK(folderLink.isDirectory);
  const auto& fileLink = walked.entries.at("file-link");
  CHECK(fileLink.isSymlink);
  CHECK(fileLink.isFile);
  const auto& dangling = walked.entries.at("dangling");
  CHECK(dangling.isSymlink);
  CHECK_FALSE(dangling.isFile);
  CHECK_FALSE(dangling.isDirectory);
  CHECK(walked.entries.at("folder-link/inside.txt").path == dir.path() / "folder-link" / "inside.txt");
  CHECK(walked.result.errors.empty()); // a dangling link is no error
}

TEST_CASE("walker: with followLinks a link loop is reported and not entered", "[walker]") {
  TempDir dir("walker");
  write(dir.path() / "a" / "x.txt");
  fs::create_directory_symlink("..", dir.path() / "a" / "up");
  fs::create_directory_symlink(".", dir.path() / "a" / "self");

  for (std::size_t threads : {1U, 3U}) {
    auto options = plain(threads);
    options.followLinks = true;
    const auto walked = walk(dir.path(), options);
    CHECK(walked.relatives == Paths{"a", "a/self", "a/up", "a/x.txt"});
    CHECK(walked.result.errors == Paths{(dir.path() / "a" / "self").string() + ": a symbolic link loop",
                                        (dir.path() / "a" / "up").string() + ": a symbolic link loop"});
  }
}

TEST_CASE("walker: with followLinks a link to a sibling is entered, it is no loop", "[walker]") {
  TempDir dir("walker");
  write(dir.path() / "a" / "x.txt");
  fs::create_directory_symlink("a", dir.path() / "b");
  auto options = plain();
  options.followLinks = true;
  const auto walked = walk(dir.path(), options);
  CHECK(walked.relatives == Paths{"a", "a/x.txt", "b", "b/x.txt"});
  CHECK(walked.result.errors.empty());
}

TEST_CASE("walker: a folder that cannot be read is reported and the walk goes on", "[walker]") {
  TempDir dir("walker");
  write(dir.path() / "locked" / "secret.txt");
  write(dir.path() / "open" / "fine.txt");
  fs::permissions(dir.path() / "locked", fs::perms::none);
  if (::access((dir.path() / "locked").c_str(), R_OK) == 0) {
    WARN("running with privileges that ignore permissions (root?): the unreadable-folder case is not checked");
    return;
  }
  const auto walked = walk(dir.path(), plain());
  CHECK(walked.relatives == Paths{"locked", "open", "open/fine.txt"});
  CHECK(walked.result.errors == Paths{(dir.path() / "locked").string() + ": Permission denied"});
}

TEST_CASE("walker: a root that does not exist is an error, not a crash", "[walker]") {
  TempDir dir("walker");
  const auto walked = walk(dir.path() / "missing", plain());
  CHECK(walked.relatives.empty());
  CHECK(walked.result.errors == Paths{(dir.path() / "missing").string() + ": No such file or directory"});
}

TEST_CASE("walker: one thread and four threads visit the same entries", "[walker]") {
  TempDir dir("walker");
  makeWideTree(dir.path(), 30, 12);
  write(dir.path() / "deep" / "a" / "b" / "c" / "d" / "e.txt");
  const auto one = walk(dir.path(), plain(1));
  const auto four = walk(dir.path(), plain(4));
  const auto none = walk(dir.path(), plain(0)); // taken as one
  CHECK(one.relatives.size() == 30 + 30 + 30 * 12 + 6);
  CHECK(one.relatives == four.relatives);
  CHECK(one.relatives == none.relatives);
  CHECK(std::adjacent_find(four.relatives.begin(), four.relatives.end()) == four.relatives.end()); // none twice
}

TEST_CASE("walker: each thread gets its own visitor, made on that thread", "[walker]") {
  TempDir dir("walker");
  makeWideTree(dir.path(), 10, 5);
  std::mutex mutex;
  std::vector<std::thread::id> makers;
  std::atomic<bool> crossed{false};
  walkTree(
      dir.path(), plain(3),
      [&] {
        const auto maker = std::this_thread::get_id();
        {
          std::lock_guard lock(mutex);
          makers.push_back(maker);
        }
        return [&crossed, maker](const WalkEntry&) {
          if (std::this_thread::get_id() != maker) crossed = true;
          return WalkDecision::Continue;
        };
      },
      {});
  CHECK(makers.size() == 3);
  CHECK_FALSE(crossed);
}

TEST_CASE("walker: a visitor's exception reaches the caller after the threads stop", "[walker]") {
  TempDir dir("walker");
  makeWideTree(dir.path(), 10, 5);
  CHECK_THROWS_WITH(walk(dir.path(), plain(2),
                         [](const WalkEntry& entry) -> WalkDecision {
                           if (entry.isFile) throw std::runtime_error("visitor failed");
                           return WalkDecision::Continue;
                         }),
                    "visitor failed");
}

TEST_CASE("walker: a cancelled token stops the walk", "[walker]") {
  TempDir dir("walker");
  makeWideTree(dir.path(), 40, 25);

  SECTION("cancelled before the start: nothing is visited") {
    CancellationSource source;
    source.cancel();
    const auto walked = walk(dir.path(), plain(), {}, source.token());
    CHECK(walked.result.cancelled);
    CHECK(walked.result.quit);
    CHECK(walked.visits == 0);
  }
  SECTION("cancelled during the walk: it stops short") {
    CancellationSource source;
    std::atomic<int> seen{0};
    const auto walked = walk(
        dir.path(), plain(),
        [&](const WalkEntry&) {
          if (++seen == 5) source.cancel();
          return WalkDecision::Continue;
        },
        source.token());
    CHECK(walked.result.cancelled);
    CHECK(walked.result.quit);
    CHECK(walked.visits < 1080);
  }
}

// ---- ignore files (these need core/walk/ignore_rules) ----

TEST_CASE("walker: .gitignore keeps ignored folders and files out, negations back in", "[walker]") {
  TempDir dir("walker");
  write(dir.path() / ".gitignore", "build/\n*.log\n!keep.log\n");
  write(dir.path() / "build" / "out.o");
  write(dir.path() / "src" / "main.c");
  write(dir.path() / "src" / "debug.log");
  write(dir.path() / "keep.log");
  write(dir.path() / "trace.log");

  WalkOptions options;
  const auto walked = walk(dir.path(), options);
  CHECK(walked.relatives == Paths{".gitignore", "keep.log", "src", "src/main.c"});

  options.respectIgnores = false;
  CHECK(walk(dir.path(), options).relatives ==
        Paths{".gitignore", "build", "build/out.o", "keep.log", "src", "src/debug.log", "src/main.c", "trace.log"});
}

TEST_CASE("walker: a nested .gitignore applies to its own folder only", "[walker]") {
  TempDir dir("walker");
  write(dir.path() / "sub" / ".gitignore", "*.tmp\n");
  write(dir.path() / "sub" / "a.tmp");
  write(dir.path() / "sub" / "deeper" / "b.tmp");
  write(dir.path() / "sub" / "keep.c");
  write(dir.path() / "top.tmp");
  for (std::size_t threads : {1U, 4U}) {
    WalkOptions options;
    options.threads = threads;
    CHECK(walk(dir.path(), options).relatives == Paths{"sub", "sub/.gitignore", "sub/deeper", "sub/keep.c", "top.tmp"});
  }
}

TEST_CASE("walker: .ignore files are honoured too", "[walker]") {
  TempDir dir("walker");
  write(dir.path() / ".ignore", "generated/\n");
  write(dir.path() / "generated" / "x.c");
  write(dir.path() / "main.c");
  CHECK(walk(dir.path(), WalkOptions{}).relatives == Paths{".ignore", "main.c"});
}

TEST_CASE("walker: a .gitignore above the root, in the same repository, applies", "[walker]") {
  TempDir dir("walker");
  fs::create_directories(dir.path() / ".git" / "info");
  write(dir.path() / ".git" / "HEAD", "ref: refs/heads/main\n");
  write(dir.path() / ".gitignore", "secret.txt\n/src/generated/\n");
  write(dir.path() / "src" / "secret.txt");
  write(dir.path() / "src" / "generated" / "g.c");
  write(dir.path() / "src" / "main.c");
  const auto walked = walk(dir.path() / "src", WalkOptions{});
  CHECK(walked.relatives == Paths{"main.c"});
}

namespace {

/// Makes `depth` nested folders named "a" below `root` by descriptor (their paths outgrow
/// PATH_MAX), with `files` written at the bottom; returns the bottom's relative path.
std::string makeChain(const fs::path& root, int depth, const std::map<std::string, std::string>& files) {
  int at = ::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  std::string relative;
  for (int i = 0; i < depth; ++i) {
    REQUIRE(::mkdirat(at, "a", 0755) == 0);
    const int next = ::openat(at, "a", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    ::close(at);
    at = next;
    relative += relative.empty() ? "a" : "/a";
  }
  for (const auto& [name, text] : files) {
    const int fd = ::openat(at, name.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    REQUIRE(::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()));
    ::close(fd);
  }
  ::close(at);
  return relative;
}

/// Removes what makeChain made (a path-based removal cannot reach its bottom).
void removeChain(const fs::path& root, int depth) {
  std::vector<int> folders{::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)};
  for (int i = 0; i < depth; ++i) folders.push_back(::openat(folders.back(), "a", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  for (const char* name : {".gitignore", "keep.c", "drop.tmp"}) ::unlinkat(folders.back(), name, 0);
  for (int i = depth; i > 0; --i) {
    ::close(folders[i]);
    CHECK(::unlinkat(folders[i - 1], "a", AT_REMOVEDIR) == 0);
  }
  ::close(folders[0]);
}

} // namespace

TEST_CASE("walker: a chain deeper than PATH_MAX is walked through descriptors, its ignore files too", "[walker]") {
  // 2,500 folders: "/a" × 2,500 is past the 4,096 bytes a path may have, so nothing here can be
  // reached by its path: the folders are opened from their parents, and the .gitignore at the
  // bottom is read through its folder's descriptor (read by path, it was silently missed).
  TempDir dir("walker");
  const std::string bottom =
      makeChain(dir.path(), 2500, {{".gitignore", "*.tmp\n"}, {"keep.c", "x"}, {"drop.tmp", "x"}});
  for (std::size_t threads : {1U, 3U}) {
    WalkOptions options;
    options.threads = threads;
    const Walked walked = walk(dir.path(), options);
    CHECK(walked.result.errors.empty());
    CHECK(walked.entries.count(bottom + "/keep.c") == 1);
    CHECK(walked.entries.count(bottom + "/.gitignore") == 1);
    CHECK(walked.entries.count(bottom + "/drop.tmp") == 0);
    CHECK(walked.visits == 2500 + 2);
  }
  removeChain(dir.path(), 2500);
}
