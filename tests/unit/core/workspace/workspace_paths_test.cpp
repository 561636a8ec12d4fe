// The path service against a real file system: a workspace and an "outside" sibling, with the
// symlinks, `..` and prefixes that let paths escape lexical or existence-based checks.
#include "core/workspace/workspace_paths.h"
#include "tests/support/temp_dir.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using namespace toold::core;
using namespace std::string_literals;

namespace {

/// A private folder `<tmp>/workspace_paths_test_XXXXXX` holding `ws/` (the workspace, with
/// `src/a.ts`), `outside/` (with `secret` and `sub/`) and `ws-evil/`; removed with everything in it.
class Sandbox {
public:
  Sandbox() {
    fs::create_directories(ws() / "src");
    fs::create_directories(outside() / "sub");
    fs::create_directories(root_ / "ws-evil");
    write(ws() / "src" / "a.ts");
    write(outside() / "secret");
    write(root_ / "ws-evil" / "x");
  }
  const fs::path& root() const { return root_; }
  fs::path ws() const { return root_ / "ws"; }
  fs::path outside() const { return root_ / "outside"; }
  Location location() const { return Location{ws(), root_ / "data", {}}; }

  static void write(const fs::path& path) { std::ofstream(path) << "x"; }

private:
  toold::testing::TempDir dir_{"workspace_paths_test"};
  const fs::path& root_ = dir_.path();
};

/// Sets an environment variable for the rest of the scope, then puts the old value back.
class EnvOverride {
public:
  EnvOverride(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) saved_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~EnvOverride() {
    if (saved_) {
      ::setenv(name_, saved_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }
  EnvOverride(const EnvOverride&) = delete;
  EnvOverride& operator=(const EnvOverride&) = delete;

private:
  const char* name_;
  std::optional<std::string> saved_;
};

} // namespace

TEST_CASE("workspace paths: relative and absolute paths inside the workspace", "[workspace_paths]") {
  Sandbox box;
  ResolvedPath relative = resolveToolPath("src/a.ts", box.location());
  CHECK(relative.given == box.ws() / "src/a.ts");
  CHECK(relative.canonical == box.ws() / "src/a.ts");
  CHECK(relative.exists);
  CHECK_FALSE(relative.isDirectory);
  CHECK(relative.inside);

  ResolvedPath absolute = resolveToolPath((box.ws() / "src").string(), box.location());
  CHECK(absolute.canonical == box.ws() / "src");
  CHECK(absolute.exists);
  CHECK(absolute.isDirectory);
  CHECK(absolute.inside);

  ResolvedPath dotted = resolveToolPath("./src/./../src//a.ts/", box.location());
  CHECK(dotted.canonical == box.ws() / "src/a.ts");
  CHECK(dotted.inside);

  ResolvedPath itself = resolveToolPath(".", box.location());
  CHECK(itself.canonical == box.ws());
  CHECK(itself.inside);
}

TEST_CASE("workspace paths: .. escaping the workspace is outside", "[workspace_paths]") {
  Sandbox box;
  ResolvedPath up = resolveToolPath("../outside/secret", box.location());
  CHECK(up.given == box.ws() / "../outside/secret");
  CHECK(up.canonical == box.outside() / "secret");
  CHECK(up.exists);
  CHECK_FALSE(up.inside);

  ResolvedPath deep = resolveToolPath("src/../../outside", box.location());
  CHECK(deep.canonical == box.outside());
  CHECK_FALSE(deep.inside);

  // `..` at the root stays at the root.
  CHECK(resolveToolPath("/../../etc/../etc", box.location()).canonical == "/etc");
}

TEST_CASE("workspace paths: containment is by component, not string prefix", "[workspace_paths]") {
  CHECK(pathContains("/x/ws", "/x/ws"));
  CHECK(pathContains("/x/ws", "/x/ws/a/b"));
  CHECK(pathContains("/x/ws/", "/x/ws/a"));
  CHECK(pathContains("/", "/etc"));
  CHECK_FALSE(pathContains("/x/ws", "/x/ws-evil"));
  CHECK_FALSE(pathContains("/x/ws", "/x/ws-evil/a"));
  CHECK_FALSE(pathContains("/x/ws", "/x"));
  CHECK_FALSE(pathContains("/x/ws", "/y/ws"));
  CHECK_FALSE(pathContains("", "/x"));
  // Slashes as std::filesystem::path counts them: doubled ones are one, a trailing one none, and a
  // relative path is never inside an absolute one.
  CHECK(pathContains("/x//ws", "/x/ws/a"));
  CHECK(pathContains("/x/ws", "/x/ws/"));
  CHECK(pathContains("/x/ws", "//x///ws//a"));
  CHECK(pathContains("x/ws", "x/ws/a"));
  CHECK_FALSE(pathContains("/x/ws", "x/ws/a"));
  CHECK_FALSE(pathContains("x/ws", "/x/ws/a"));
  CHECK_FALSE(pathContains("/x/ws/a", "/x/ws"));

  Sandbox box;
  ResolvedPath evil = resolveToolPath((box.root() / "ws-evil/x").string(), box.location());
  CHECK(evil.exists);
  CHECK_FALSE(evil.inside);
  ResolvedPath evilRelative = resolveToolPath("../ws-evil/x", box.location());
  CHECK(evilRelative.canonical == box.root() / "ws-evil/x");
  CHECK_FALSE(evilRelative.inside);
}

TEST_CASE("workspace paths: ~ and ~/ expand to HOME, other tildes are literal", "[workspace_paths]") {
  Sandbox box;
  EnvOverride home("HOME", box.ws().string());
  ResolvedPath file = resolveToolPath("~/src/a.ts", box.location());
  CHECK(file.given == box.ws() / "src/a.ts");
  CHECK(file.canonical == box.ws() / "src/a.ts");
  CHECK(file.inside);
  CHECK(resolveToolPath("~", box.location()).canonical == box.ws());
  CHECK(resolveToolPath("~user/x", box.location()).canonical == box.ws() / "~user/x");
  CHECK(resolveToolPath("src/~/x", box.location()).canonical == box.ws() / "src/~/x");
  CHECK(resolveToolPath("~x", box.location()).canonical == box.ws() / "~x");

  EnvOverride outsideHome("HOME", box.outside().string());
  ResolvedPath away = resolveToolPath("~/secret", box.location());
  CHECK(away.canonical == box.outside() / "secret");
  CHECK_FALSE(away.inside);
}

TEST_CASE("workspace paths: empty paths and NUL bytes are refused", "[workspace_paths]") {
  Sandbox box;
  CHECK_THROWS_MATCHES(resolveToolPath("", box.location()), PathError,
                       Catch::Matchers::Message("Path is empty"));
  CHECK_THROWS_MATCHES(resolveToolPath("src/a.ts\0/../../../outside"s, box.location()), PathError,
                       Catch::Matchers::Message("Path contains a NUL byte"));
  CHECK_THROWS_MATCHES(resolveToolPath("\0"s, box.location()), PathError,
                       Catch::Matchers::Message("Path contains a NUL byte"));
}

TEST_CASE("workspace paths: files and folders that do not exist yet", "[workspace_paths]") {
  Sandbox box;
  ResolvedPath file = resolveToolPath("src/new.ts", box.location());
  CHECK(file.canonical == box.ws() / "src/new.ts");
  CHECK_FALSE(file.exists);
  CHECK_FALSE(file.isDirectory);
  CHECK(file.inside);

  ResolvedPath nested = resolveToolPath("new/deeper/file.txt", box.location());
  CHECK(nested.canonical == box.ws() / "new/deeper/file.txt");
  CHECK_FALSE(nested.exists);
  CHECK(nested.inside);

  ResolvedPath escaping = resolveToolPath("new/../../outside/new", box.location());
  CHECK(escaping.canonical == box.outside() / "new");
  CHECK_FALSE(escaping.inside);

  // Below a file: not a directory, taken as written.
  ResolvedPath belowFile = resolveToolPath("src/a.ts/x", box.location());
  CHECK(belowFile.canonical == box.ws() / "src/a.ts/x");
  CHECK_FALSE(belowFile.exists);
  CHECK(belowFile.inside);
}

TEST_CASE("workspace paths: a symlink inside pointing outside is outside", "[workspace_paths]") {
  Sandbox box;
  fs::create_symlink(box.outside() / "secret", box.ws() / "file-link");
  fs::create_directory_symlink(box.outside(), box.ws() / "dir-link");

  ResolvedPath file = resolveToolPath("file-link", box.location());
  CHECK(file.given == box.ws() / "file-link");
  CHECK(file.canonical == box.outside() / "secret");
  CHECK(file.exists);
  CHECK_FALSE(file.isDirectory);
  CHECK_FALSE(file.inside);

  ResolvedPath dir = resolveToolPath("dir-link", box.location());
  CHECK(dir.given == box.ws() / "dir-link");
  CHECK(dir.canonical == box.outside());
  CHECK(dir.isDirectory);
  CHECK_FALSE(dir.inside);

  ResolvedPath through = resolveToolPath("dir-link/secret", box.location());
  CHECK(through.canonical == box.outside() / "secret");
  CHECK_FALSE(through.inside);

  ResolvedPath notYet = resolveToolPath("dir-link/new/file", box.location());
  CHECK(notYet.canonical == box.outside() / "new/file");
  CHECK_FALSE(notYet.inside);
}

TEST_CASE("workspace paths: .. after a symlink leaves the link's target", "[workspace_paths]") {
  Sandbox box;
  fs::create_directory_symlink(box.outside() / "sub", box.ws() / "link");
  ResolvedPath path = resolveToolPath("link/../secret", box.location());
  CHECK(path.given == box.ws() / "link/../secret");
  CHECK(path.canonical == box.outside() / "secret");
  CHECK(path.exists);
  CHECK_FALSE(path.inside);

  // A missing component does not switch resolution to lexical: the link after it is followed.
  fs::create_symlink(box.outside() / "secret", box.ws() / "secret-link");
  ResolvedPath afterMissing = resolveToolPath("missing/../secret-link", box.location());
  CHECK(afterMissing.canonical == box.outside() / "secret");
  CHECK_FALSE(afterMissing.inside);
}

TEST_CASE("workspace paths: a dangling symlink resolves to its target", "[workspace_paths]") {
  Sandbox box;
  fs::create_symlink(box.outside() / "not-there", box.ws() / "dangling");
  ResolvedPath path = resolveToolPath("dangling", box.location());
  CHECK(path.given == box.ws() / "dangling");
  CHECK(path.canonical == box.outside() / "not-there");
  CHECK_FALSE(path.exists);
  CHECK_FALSE(path.inside);

  fs::create_symlink(box.ws() / "src/later.ts", box.ws() / "dangling-inside");
  ResolvedPath inside = resolveToolPath("dangling-inside", box.location());
  CHECK(inside.canonical == box.ws() / "src/later.ts");
  CHECK(inside.inside);
}

TEST_CASE("workspace paths: symlink loops are refused", "[workspace_paths]") {
  Sandbox box;
  fs::create_symlink(box.ws() / "b", box.ws() / "a");
  fs::create_symlink(box.ws() / "a", box.ws() / "b");
  fs::create_symlink("self", box.ws() / "self");
  using Catch::Matchers::Contains;
  CHECK_THROWS_MATCHES(resolveToolPath("a", box.location()), PathError,
                       Catch::Matchers::Message("Cannot resolve '" + (box.ws() / "a").string() +
                                                "': too many levels of symbolic links (a symlink loop?)"));
  CHECK_THROWS_WITH(resolveToolPath("b/x", box.location()), Contains("too many levels of symbolic links"));
  CHECK_THROWS_WITH(resolveToolPath("self", box.location()), Contains("too many levels of symbolic links"));
  CHECK_THROWS_WITH(resolveToolPath("missing/../self/../src", box.location()),
                    Contains("too many levels of symbolic links"));
}

TEST_CASE("workspace paths: 40 symlink expansions resolve, 41 do not", "[workspace_paths]") {
  Sandbox box;
  // chain0 -> chain1 -> ... -> chain40 -> src/a.ts: following chain1 takes 40 expansions.
  fs::create_symlink(box.ws() / "src/a.ts", box.ws() / "chain40");
  for (int i = 39; i >= 0; --i) {
    fs::create_symlink("chain" + std::to_string(i + 1), box.ws() / ("chain" + std::to_string(i)));
  }
  CHECK(resolveToolPath("chain1", box.location()).canonical == box.ws() / "src/a.ts");
  CHECK_THROWS_AS(resolveToolPath("chain0", box.location()), PathError);
}

TEST_CASE("workspace paths: /proc/self/root is the root directory", "[workspace_paths]") {
  Sandbox box;
  ResolvedPath viaProc = resolveToolPath("/proc/self/root" + (box.ws() / "src/a.ts").string(), box.location());
  CHECK(viaProc.canonical == box.ws() / "src/a.ts");
  CHECK(viaProc.exists);
  CHECK(viaProc.inside);

  ResolvedPath root = resolveToolPath("/proc/self/root", box.location());
  CHECK(root.canonical == "/");
  CHECK(root.isDirectory);
  CHECK_FALSE(root.inside);
}

TEST_CASE("workspace paths: relative symlink targets resolve from the link's folder", "[workspace_paths]") {
  Sandbox box;
  fs::create_symlink("a.ts", box.ws() / "src/alias.ts");
  fs::create_symlink("../../outside/secret", box.ws() / "src/up");
  fs::create_directory_symlink("src", box.ws() / "code");

  ResolvedPath alias = resolveToolPath("src/alias.ts", box.location());
  CHECK(alias.canonical == box.ws() / "src/a.ts");
  CHECK(alias.inside);

  ResolvedPath up = resolveToolPath("src/up", box.location());
  CHECK(up.canonical == box.outside() / "secret");
  CHECK_FALSE(up.inside);

  ResolvedPath viaCode = resolveToolPath("code/alias.ts", box.location());
  CHECK(viaCode.canonical == box.ws() / "src/a.ts");
  CHECK(viaCode.inside);
}

TEST_CASE("workspace paths: the worktree counts as inside, a worktree of / does not", "[workspace_paths]") {
  Sandbox box;
  // The workspace is a package folder of a repository whose root is the sandbox's `repo/`.
  fs::path repo = box.root() / "repo";
  fs::create_directories(repo / ".git");
  fs::create_directories(repo / "pkg");
  fs::create_directories(repo / "lib");
  Sandbox::write(repo / "lib/util.ts");
  fs::create_directory_symlink(repo / "lib", repo / "pkg/lib-link");
  fs::create_directory_symlink(box.outside(), repo / "pkg/out-link");
  Location location{repo / "pkg", box.root() / "data", repo};

  ResolvedPath shared = resolveToolPath("lib-link/util.ts", location);
  CHECK(shared.canonical == repo / "lib/util.ts");
  CHECK(shared.inside);
  CHECK(resolveToolPath("../lib/util.ts", location).inside);
  CHECK_FALSE(resolveToolPath("out-link/secret", location).inside);
  CHECK_FALSE(resolveToolPath("../../outside/secret", location).inside);

  location.worktree = "/";
  CHECK_FALSE(resolveToolPath("lib-link/util.ts", location).inside);
  CHECK(resolveToolPath("x", location).inside);
}

TEST_CASE("workspace paths: findWorktree finds a .git folder or file, or nothing", "[workspace_paths]") {
  Sandbox box;
  fs::path repo = box.root() / "repo";
  fs::create_directories(repo / ".git");
  fs::create_directories(repo / "a/b");
  CHECK(findWorktree(repo / "a/b") == repo);
  CHECK(findWorktree(repo) == repo);

  fs::path linked = box.root() / "linked";
  fs::create_directories(linked / "c");
  std::ofstream(linked / ".git") << "gitdir: " << (repo / ".git/worktrees/linked").string() << "\n";
  CHECK(findWorktree(linked / "c") == linked);

  // A nested repository is its own worktree.
  fs::create_directories(repo / "a/nested/.git");
  CHECK(findWorktree(repo / "a/nested") == repo / "a/nested");

  CHECK(findWorktree(box.outside() / "sub") == fs::path());
  CHECK(findWorktree(box.root() / "missing") == fs::path());
}

TEST_CASE("workspace paths: the external_directory ask", "[workspace_paths]") {
  Sandbox box;
  fs::create_symlink(box.outside() / "secret", box.ws() / "file-link");
  ResolvedPath file = resolveToolPath("file-link", box.location());
  std::optional<PermissionAsk> fileAsk = externalDirectoryAsk(file, PathKind::File);
  REQUIRE(fileAsk);
  std::string outsideGlob = (box.outside() / "*").string();
  CHECK(fileAsk->action == "external_directory");
  CHECK(fileAsk->resources == std::vector<std::string>{outsideGlob});
  CHECK(fileAsk->save == std::vector<std::string>{outsideGlob});
  CHECK(fileAsk->metadata == json{{"filepath", (box.ws() / "file-link").string()},
                                  {"resolved", (box.outside() / "secret").string()},
                                  {"parentDir", box.outside().string()}});

  ResolvedPath dir = resolveToolPath((box.outside() / "sub").string(), box.location());
  std::optional<PermissionAsk> dirAsk = externalDirectoryAsk(dir, PathKind::Directory);
  REQUIRE(dirAsk);
  std::string subGlob = (box.outside() / "sub/*").string();
  CHECK(dirAsk->resources == std::vector<std::string>{subGlob});
  CHECK(dirAsk->save == std::vector<std::string>{subGlob});
  CHECK(dirAsk->metadata["parentDir"] == (box.outside() / "sub").string());

  ResolvedPath root = resolveToolPath("/", box.location());
  REQUIRE(externalDirectoryAsk(root, PathKind::Directory));
  CHECK(externalDirectoryAsk(root, PathKind::Directory)->resources == std::vector<std::string>{"/*"});

  CHECK_FALSE(externalDirectoryAsk(resolveToolPath("src/a.ts", box.location()), PathKind::File));
  CHECK_FALSE(externalDirectoryAsk(resolveToolPath("src", box.location()), PathKind::Directory));
}

TEST_CASE("workspace paths: workspaceRelative", "[workspace_paths]") {
  Sandbox box;
  fs::create_directory_symlink(box.ws() / "src", box.ws() / "code");
  fs::create_symlink(box.outside() / "secret", box.ws() / "file-link");
  Location location = box.location();
  CHECK(workspaceRelative(resolveToolPath("src/a.ts", location), location) == "src/a.ts");
  CHECK(workspaceRelative(resolveToolPath("code/a.ts", location), location) == "src/a.ts");
  CHECK(workspaceRelative(resolveToolPath("new/dir/f.txt", location), location) == "new/dir/f.txt");
  CHECK(workspaceRelative(resolveToolPath(".", location), location) == ".");
  CHECK(workspaceRelative(resolveToolPath("file-link", location), location) ==
        (box.outside() / "secret").string());
  CHECK(workspaceRelative(resolveToolPath("../ws-evil/x", location), location) ==
        (box.root() / "ws-evil/x").string());
}

TEST_CASE("workspace paths: a path deeper than PATH_MAX is resolved, links and all", "[workspace_paths]") {
  // 2,500 folders "d": the path is past what any path-based look may take, so each component is
  // looked at from its folder's descriptor. At the bottom, a link that climbs two folders and a
  // link out of the workspace: both followed, and the file found there exists.
  Sandbox box;
  int at = ::open(box.ws().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  std::string relative;
  std::vector<int> folders{at};
  for (int i = 0; i < 2500; ++i) {
    REQUIRE(::mkdirat(at, "d", 0755) == 0);
    at = ::openat(at, "d", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    folders.push_back(at);
    relative += relative.empty() ? "d" : "/d";
  }
  const int file = ::openat(at, "f.txt", O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  ::close(file);
  REQUIRE(::symlinkat("../../f.txt", folders[2500 - 2], "up") == 0); // in the folder 2,498 deep
  REQUIRE(::symlinkat((box.outside() / "secret").c_str(), at, "out") == 0);

  const ResolvedPath deep = resolveToolPath(relative + "/f.txt", box.location());
  CHECK(deep.exists);
  CHECK_FALSE(deep.isDirectory);
  CHECK(deep.inside);
  CHECK(deep.canonical.native().size() > 5000);
  CHECK(deep.canonical.native().ends_with("/d/d/f.txt"));

  const ResolvedPath out = resolveToolPath(relative + "/out", box.location());
  CHECK(out.canonical == box.outside() / "secret");
  CHECK(out.exists);
  CHECK_FALSE(out.inside);

  // d×2498/up → ../../f.txt: two folders up from d×2498, then f.txt: d×2496/f.txt, which does
  // not exist — resolved as written, through the link.
  std::string to2498 = relative.substr(0, relative.size() - 4);
  const ResolvedPath up = resolveToolPath(to2498 + "/up", box.location());
  CHECK_FALSE(up.exists);
  CHECK(up.canonical.native().ends_with("/f.txt"));
  CHECK(up.canonical.native().find("/up") == std::string::npos);
  CHECK(up.canonical.native().size() == (box.ws() / relative.substr(0, relative.size() - 8)).native().size() + 6);

  // Remove the chain by descriptor: a path-based removal cannot reach its bottom.
  ::unlinkat(at, "f.txt", 0);
  ::unlinkat(at, "out", 0);
  ::unlinkat(folders[2500 - 2], "up", 0);
  for (int i = 2500; i > 0; --i) {
    ::close(folders[i]);
    CHECK(::unlinkat(folders[i - 1], "d", AT_REMOVEDIR) == 0);
  }
  ::close(folders[0]);
}
