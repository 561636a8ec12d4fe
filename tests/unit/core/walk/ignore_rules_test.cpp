#include "core/walk/ignore_rules.h"
#include "tests/support/temp_dir.h"

#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using toold::core::IgnoreFile;
using toold::core::IgnoreMatch;
using toold::core::IgnoreOptions;
using toold::core::IgnoreStack;
using toold::core::userExcludesFile;
using toold::testing::TempDir;

namespace {

/// Sets (or, with nullopt, unsets) environment variables for one scope, restoring them after.
class ScopedEnvironment {
public:
  ScopedEnvironment(std::initializer_list<std::pair<const char*, std::optional<std::string>>> values) {
    for (const auto& [name, value] : values) {
      const char* old = std::getenv(name);
      saved_.emplace_back(name, old ? std::optional<std::string>(old) : std::nullopt);
      set(name, value);
    }
  }
  ~ScopedEnvironment() {
    for (auto it = saved_.rbegin(); it != saved_.rend(); ++it) set(it->first, it->second);
  }
  ScopedEnvironment(const ScopedEnvironment&) = delete;
  ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

private:
  static void set(const char* name, const std::optional<std::string>& value) {
    if (value) ::setenv(name, value->c_str(), 1);
    else ::unsetenv(name);
  }
  std::vector<std::pair<const char*, std::optional<std::string>>> saved_;
};

void write(const fs::path& path, std::string_view text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

/// A home folder of its own, so the user's real git configuration plays no part.
ScopedEnvironment isolatedHome(const fs::path& home) {
  fs::create_directories(home);
  return ScopedEnvironment{{"HOME", home.string()}, {"XDG_CONFIG_HOME", std::nullopt}};
}

IgnoreFile parsed(std::string_view text, const fs::path& base = "/base", std::vector<std::string>* problems = nullptr) {
  return IgnoreFile::parse(text, base, "test", problems);
}

/// Judges `relative` (below `root`) as a walker would: folder by folder, each folder's verdict
/// taken with its parent's stack, and a path below an ignored folder ignored with it.
bool ignoredByWalk(const fs::path& root, const std::string& relative, bool isDirectory,
                   const IgnoreOptions& options = {}) {
  auto stack = IgnoreStack::forRoot(root, options);
  fs::path path = root;
  std::size_t start = 0;
  for (;;) {
    const std::size_t slash = relative.find('/', start);
    const bool last = slash == std::string::npos;
    path /= relative.substr(start, last ? std::string::npos : slash - start);
    if (stack->match(path, last ? isDirectory : true) == IgnoreMatch::Ignore) return true;
    if (last) return false;
    stack = stack->enter(path);
    start = slash + 1;
  }
}

std::string quoted(const std::string& text) {
  std::string out = "'";
  for (const char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

int shell(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

} // namespace

TEST_CASE("ignore: verdicts agree with git check-ignore on every documented rule", "[ignore]") {
  TempDir temp("ignore_git");
  const fs::path repo = temp.path() / "repo";
  const fs::path home = temp.path() / "home";
  auto environment = isolatedHome(home);
  ScopedEnvironment gitEnvironment{{"GIT_CONFIG_NOSYSTEM", "1"}, {"GIT_DIR", std::nullopt},
                                   {"GIT_WORK_TREE", std::nullopt}, {"GIT_CONFIG_GLOBAL", std::nullopt}};
  fs::create_directories(repo);
  const bool haveGit = shell("git --version >/dev/null 2>&1") == 0;
  if (haveGit) REQUIRE(shell("cd " + quoted(repo.string()) + " && git init -q >/dev/null 2>&1") == 0);
  else fs::create_directories(repo / ".git");

  write(repo / ".gitignore",
        "# a comment, then a blank line and one of spaces only\n"
        "\n"
        "   \n"
        "#comment.txt\n"
        "*.log\n"
        "!important.log\n"
        "trailing.txt   \n"          // trailing spaces are dropped
        "space\\ \n"                 // but not an escaped one: matches "space "
        "tabbed.txt\t\n"             // tabs are kept
        "crlf.txt\r\n"               // a CR before the newline goes
        "\\#hash.txt\n"
        "\\!bang.txt\n"
        "hello.*\n"
        "file?.bak\n"
        "[Tt]humbs.db\n"
        "[!0-9]x.dat\n"
        "{a,b}.brace\n"              // no braces in git: literal
        "build/\n"                   // folders only, at any depth
        "doc/frotz/\n"               // anchored by the middle slash, folders only
        "/root-only.txt\n"           // anchored by the leading slash
        "docs/*.md\n"                // anchored; * does not cross '/'
        "**/cache\n"
        "logs/**\n"
        "a/**/z\n"
        "foo**bar\n"                 // not a whole component: a plain *
        "/vendor/\n"
        "!/vendor/keep.txt\n"        // cannot re-include below an ignored folder
        "/out/*\n"
        "!/out/keep/\n"              // can: out itself is not ignored
        "!keep.excluded\n"           // beats .git/info/exclude
        "nested/n.log\n");
  write(repo / "nested" / ".gitignore",
        "/local.txt\n"               // relative to nested/
        "!*.log\n"                   // beats the top-level *.log and nested/n.log
        "deep/*.txt\n"
        "**/gen\n"
        "*.tmp\n");
  write(repo / "nested" / "deeper" / ".gitignore", "!keep.tmp\n");
  write(repo / "sub" / ".gitignore", "/*\n!/foo\n/foo/*\n!/foo/bar\n"); // the documentation's example
  write(repo / ".git" / "info" / "exclude", "*.excluded\n!special.userignored\n");
  write(home / ".config" / "git" / "ignore", "*.userignored\n");

  struct Path {
    std::string relative;
    bool isDirectory;
    bool ignored;
  };
  const std::vector<Path> paths = {
      {"#comment.txt", false, false},
      {"x.log", false, true},
      {"m/x.log", false, true},
      {"important.log", false, false},
      {"m/important.log", false, false},
      {"trailing.txt", false, true},
      {"space ", false, true},
      {"space", false, false},
      {"tabbed.txt", false, false},
      {"crlf.txt", false, true},
      {"#hash.txt", false, true},
      {"!bang.txt", false, true},
      {"bang.txt", false, false},
      {"hello.c", false, true},
      {"m/hello.d", true, true},
      {"hello", false, false},
      {"file1.bak", false, true},
      {"file12.bak", false, false},
      {"Thumbs.db", false, true},
      {"thumbs.db", false, true},
      {"xthumbs.db", false, false},
      {"ax.dat", false, true},
      {"1x.dat", false, false},
      {"{a,b}.brace", false, true},
      {"a.brace", false, false},
      {"build", true, true},
      {"m/build", true, true},
      {"m/build/x.c", false, true},
      {"f/build", false, false},          // a file named build
      {"doc/frotz", true, true},
      {"doc/frotz/x", false, true},
      {"a/doc/frotz", true, false},
      {"root-only.txt", false, true},
      {"m/root-only.txt", false, false},
      {"docs/a.md", false, true},
      {"docs/sub/b.md", false, false},
      {"m/docs/a.md", false, false},
      {"cache", true, true},
      {"p/cache", false, true},
      {"p/q/cache/f", false, true},
      {"cachex", false, false},
      {"logs", true, false},
      {"logs/x", false, true},
      {"logs/deep/y", false, true},
      {"a/z", false, true},
      {"a/m/z", false, true},
      {"a/m/n/z", true, true},
      {"b/a/z", false, false},
      {"fooXbar", false, true},
      {"m/foobar", false, true},
      {"foo/bar", false, false},
      {"vendor", true, true},
      {"vendor/keep.txt", false, true},
      {"out/x", false, true},
      {"out/keep", true, false},
      {"out/keep/y", false, false},
      {"out", true, false},
      {"keep.excluded", false, false},
      {"other.excluded", false, true},
      {"m/other.excluded", false, true},
      {"a.userignored", false, true},
      {"special.userignored", false, false},
      {"nested/local.txt", false, true},
      {"nested/deeper/local.txt", false, false},
      {"local.txt", false, false},
      {"nested/n.log", false, false},
      {"nested/deeper/d.log", false, false},
      {"nested/deep/a.txt", false, true},
      {"nested/deep/x/b.txt", false, false},
      {"nested/gen", true, true},
      {"nested/p/gen", false, true},
      {"gen", false, false},
      {"nested/deeper/other.tmp", false, true},
      {"nested/deeper/keep.tmp", false, false},
      {"sub/x", false, true},
      {"sub/foo", true, false},
      {"sub/foo/y", false, true},
      {"sub/foo/bar", true, false},
      {"sub/foo/bar/z", false, false},
  };
  for (const auto& path : paths) {
    const fs::path absolute = repo / path.relative;
    if (path.isDirectory) fs::create_directories(absolute);
    else if (!fs::exists(absolute)) write(absolute, "x\n");
  }
  IgnoreOptions options;
  options.dotIgnore = false;
  for (const auto& path : paths) {
    INFO("path '" << path.relative << "'" << (path.isDirectory ? " (a folder)" : ""));
    CHECK(ignoredByWalk(repo, path.relative, path.isDirectory, options) == path.ignored);
    if (!haveGit) continue;
    const int git = shell("cd " + quoted(repo.string()) + " && git check-ignore -q --no-index -- " +
                          quoted(path.relative));
    REQUIRE((git == 0 || git == 1));
    CHECK((git == 0) == path.ignored);
  }
  if (!haveGit) WARN("git is not installed: the verdicts were not compared with git check-ignore");
}

TEST_CASE("ignore: parsing drops comments, blanks and unescaped trailing spaces", "[ignore]") {
  const IgnoreFile file = parsed("\xEF\xBB\xBF*.o\r\n# note\n\n  \nname \\ \n!\n/\n");
  CHECK(file.match("/base/x.o", false) == IgnoreMatch::Ignore);     // the BOM and the CR are gone
  CHECK(file.match("/base/# note", false) == IgnoreMatch::None);
  CHECK(file.match("/base/name  ", false) == IgnoreMatch::Ignore);  // "name \ " keeps two spaces
  CHECK(file.match("/base/name ", false) == IgnoreMatch::None);
  CHECK(parsed("# only\n\n").empty());
  CHECK(parsed("!\n/\n   \n").empty());                              // nothing left of these
}

TEST_CASE("ignore: bad lines are skipped and reported with their line", "[ignore]") {
  std::vector<std::string> problems;
  const IgnoreFile file = parsed("ok.txt\nbad[\n\nalso\\\nx{y\n{a,b}\n", "/base", &problems);
  CHECK(problems ==
        std::vector<std::string>{"test:2: unclosed '[' at offset 3", "test:4: a trailing '\\' escapes nothing"});
  CHECK(file.match("/base/ok.txt", false) == IgnoreMatch::Ignore);
  CHECK(file.match("/base/bad[", false) == IgnoreMatch::None);
  // Braces are literal in gitignore, as git reads them: no alternatives, no unclosed '{'.
  CHECK(file.match("/base/x{y", false) == IgnoreMatch::Ignore);
  CHECK(file.match("/base/{a,b}", false) == IgnoreMatch::Ignore);
  CHECK(file.match("/base/a", false) == IgnoreMatch::None);
}

TEST_CASE("ignore: a file judges only paths below its folder", "[ignore]") {
  const IgnoreFile file = parsed("*\n", "/base/");
  CHECK(file.match("/base/x", false) == IgnoreMatch::Ignore);
  CHECK(file.match("/base/x/y", true) == IgnoreMatch::Ignore);
  CHECK(file.match("/base", true) == IgnoreMatch::None);
  CHECK(file.match("/based/x", false) == IgnoreMatch::None);
  CHECK(file.match("/other/x", false) == IgnoreMatch::None);
  CHECK(parsed("*\n", "/").match("/x", false) == IgnoreMatch::Ignore);
}

TEST_CASE("ignore: rules with a slash are anchored, the others match names", "[ignore]") {
  const IgnoreFile file = parsed("/top\nmid/dle\nname\nfolder/\nabc/**\n**/any\n", "/b");
  CHECK(file.match("/b/top", false) == IgnoreMatch::Ignore);
  CHECK(file.match("/b/x/top", false) == IgnoreMatch::None);
  CHECK(file.match("/b/mid/dle", false) == IgnoreMatch::Ignore);
  CHECK(file.match("/b/x/mid/dle", false) == IgnoreMatch::None);
  CHECK(file.match("/b/x/y/name", false) == IgnoreMatch::Ignore);
  CHECK(file.match("/b/x/folder", true) == IgnoreMatch::Ignore);
  CHECK(file.match("/b/x/folder", false) == IgnoreMatch::None);
  CHECK(file.match("/b/abc", true) == IgnoreMatch::None);
  CHECK(file.match("/b/abc/d/e", false) == IgnoreMatch::Ignore);
  CHECK(file.match("/b/any", false) == IgnoreMatch::Ignore);
  CHECK(file.match("/b/x/y/any", false) == IgnoreMatch::Ignore);
}

TEST_CASE("ignore: within a file the last matching rule decides", "[ignore]") {
  const IgnoreFile file = parsed("*\n!*.cpp\nbad.cpp\n");
  CHECK(file.match("/base/x.h", false) == IgnoreMatch::Ignore);
  CHECK(file.match("/base/x.cpp", false) == IgnoreMatch::Whitelist);
  CHECK(file.match("/base/bad.cpp", false) == IgnoreMatch::Ignore);
}

TEST_CASE("ignore: .ignore beats .gitignore in the same folder", "[ignore]") {
  TempDir temp("ignore_dot");
  auto environment = isolatedHome(temp.path() / "home");
  const fs::path root = temp.path() / "root";
  write(root / ".gitignore", "*.txt\n!*.md\n");
  write(root / ".ignore", "!keep.txt\n*.md\n");
  const auto stack = IgnoreStack::forRoot(root, {});
  CHECK(stack->match(root / "other.txt", false) == IgnoreMatch::Ignore);
  CHECK(stack->match(root / "keep.txt", false) == IgnoreMatch::Whitelist);
  CHECK(stack->match(root / "a.md", false) == IgnoreMatch::Ignore);
  CHECK(stack->match(root / "a.c", false) == IgnoreMatch::None);

  IgnoreOptions onlyDot;
  onlyDot.gitIgnore = false;
  const auto dotStack = IgnoreStack::forRoot(root, onlyDot);
  CHECK(dotStack->match(root / "other.txt", false) == IgnoreMatch::None);
  CHECK(dotStack->match(root / "a.md", false) == IgnoreMatch::Ignore);

  IgnoreOptions onlyGit;
  onlyGit.dotIgnore = false;
  const auto gitStack = IgnoreStack::forRoot(root, onlyGit);
  CHECK(gitStack->match(root / "keep.txt", false) == IgnoreMatch::Ignore);
  CHECK(gitStack->match(root / "a.md", false) == IgnoreMatch::Whitelist);
}

TEST_CASE("ignore: a deeper folder's rules beat a shallower folder's", "[ignore]") {
  TempDir temp("ignore_deep");
  auto environment = isolatedHome(temp.path() / "home");
  const fs::path root = temp.path() / "root";
  write(root / ".gitignore", "*.txt\n");
  write(root / ".ignore", "*.md\n");
  write(root / "sub" / ".gitignore", "!*.txt\n!*.md\n");
  fs::create_directories(root / "plain");
  const auto top = IgnoreStack::forRoot(root, {});
  const auto sub = top->enter(root / "sub");
  CHECK(top->match(root / "a.txt", false) == IgnoreMatch::Ignore);
  CHECK(sub->match(root / "sub" / "a.txt", false) == IgnoreMatch::Whitelist);
  CHECK(sub->match(root / "sub" / "a.md", false) == IgnoreMatch::Whitelist);
  CHECK(sub->directory() == root / "sub");
  // A folder without rule files shares its parent's stack.
  const auto plain = top->enter(root / "plain");
  CHECK(plain.get() == top.get());
  CHECK(plain->match(root / "plain" / "b.txt", false) == IgnoreMatch::Ignore);
}

TEST_CASE("ignore: outside a repository .gitignore files still apply", "[ignore]") {
  TempDir temp("ignore_norepo");
  auto environment = isolatedHome(temp.path() / "home");
  const fs::path root = temp.path() / "root";
  write(root / ".gitignore", "/dist/\n*.o\n");
  write(root / "src" / ".gitignore", "gen.c\n");
  const auto stack = IgnoreStack::forRoot(root, {});
  CHECK(stack->directory() == root);
  CHECK(stack->match(root / "dist", true) == IgnoreMatch::Ignore);
  CHECK(stack->match(root / "x.o", false) == IgnoreMatch::Ignore);
  CHECK(stack->match(root / "x.c", false) == IgnoreMatch::None);
  CHECK(stack->enter(root / "src")->match(root / "src" / "gen.c", false) == IgnoreMatch::Ignore);
  // Rooted at src: the folder above is not read, being outside any repository.
  const auto fromSrc = IgnoreStack::forRoot(root / "src", {});
  CHECK(fromSrc->match(root / "src" / "x.o", false) == IgnoreMatch::None);
  CHECK(fromSrc->match(root / "src" / "gen.c", false) == IgnoreMatch::Ignore);
}

TEST_CASE("ignore: a search rooted in a subfolder honours the repository's upper .gitignore files", "[ignore]") {
  TempDir temp("ignore_sub");
  auto environment = isolatedHome(temp.path() / "home");
  const fs::path repo = temp.path() / "repo";
  fs::create_directories(repo / ".git" / "info");
  write(repo / ".gitignore", "*.o\n/src/gen/\n");
  write(repo / "src" / ".gitignore", "!keep.o\n");
  write(repo / "src" / "lib" / "x.c", "");
  write(repo / ".git" / "info" / "exclude", "*.secret\n");
  const auto stack = IgnoreStack::forRoot(repo / "src" / "lib" / "", {});
  CHECK(stack->match(repo / "src" / "lib" / "a.o", false) == IgnoreMatch::Ignore);
  CHECK(stack->match(repo / "src" / "lib" / "keep.o", false) == IgnoreMatch::Whitelist);
  CHECK(stack->match(repo / "src" / "lib" / "a.secret", false) == IgnoreMatch::Ignore);
  const auto fromSrc = IgnoreStack::forRoot(repo / "src", {});
  CHECK(fromSrc->match(repo / "src" / "gen", true) == IgnoreMatch::Ignore);
  CHECK(fromSrc->match(repo / "src" / "gen", false) == IgnoreMatch::None);

  // Without git's files only .ignore files count, from the repository's root down too.
  write(repo / ".ignore", "*.dot\n");
  IgnoreOptions noGit;
  noGit.gitIgnore = false;
  const auto dotOnly = IgnoreStack::forRoot(repo / "src", noGit);
  CHECK(dotOnly->match(repo / "src" / "a.secret", false) == IgnoreMatch::None);
  CHECK(dotOnly->match(repo / "src" / "a.o", false) == IgnoreMatch::None);
  CHECK(dotOnly->match(repo / "src" / "a.dot", false) == IgnoreMatch::Ignore);
}

TEST_CASE("ignore: a .git file points to the git directory holding info/exclude", "[ignore]") {
  TempDir temp("ignore_gitfile");
  auto environment = isolatedHome(temp.path() / "home");
  const fs::path worktree = temp.path() / "worktree";
  write(worktree / ".git", "gitdir: ../store/worktrees/wt\n");
  write(temp.path() / "store" / "worktrees" / "wt" / "commondir", "../..\n");
  write(temp.path() / "store" / "info" / "exclude", "*.wt\n");
  write(temp.path() / "store" / "config", "[core]\n\texcludesFile = ~/wt-excludes\n");
  write(temp.path() / "home" / "wt-excludes", "*.mine\n");
  fs::create_directories(worktree / "deep");
  const auto stack = IgnoreStack::forRoot(worktree / "deep", {});
  CHECK(stack->match(worktree / "deep" / "a.wt", false) == IgnoreMatch::Ignore);
  CHECK(stack->match(worktree / "deep" / "a.mine", false) == IgnoreMatch::Ignore);
  CHECK(stack->match(worktree / "deep" / "a.c", false) == IgnoreMatch::None);
}

TEST_CASE("ignore: the user's excludes file comes from git's config, else the XDG default", "[ignore]") {
  TempDir temp("ignore_user");
  const fs::path home = temp.path() / "home";
  auto environment = isolatedHome(home);
  const fs::path repo = temp.path() / "repo";
  fs::create_directories(repo / ".git");

  // Nothing configured and no default file.
  CHECK(userExcludesFile(repo).empty());
  CHECK(userExcludesFile({}).empty());

  // The default: ~/.config/git/ignore, or $XDG_CONFIG_HOME/git/ignore.
  write(home / ".config" / "git" / "ignore", "*.default\n");
  CHECK(userExcludesFile({}) == home / ".config" / "git" / "ignore");
  {
    ScopedEnvironment xdg{{"XDG_CONFIG_HOME", (temp.path() / "xdg").string()}};
    CHECK(userExcludesFile({}).empty());
    write(temp.path() / "xdg" / "git" / "ignore", "*.xdg\n");
    CHECK(userExcludesFile({}) == temp.path() / "xdg" / "git" / "ignore");
  }

  // ~/.gitconfig sets it (section and key in any case, the value quoted, with a comment).
  write(home / "global-excludes", "*.global\n");
  write(home / ".gitconfig",
        "[user]\n\tname = x\n[core \"sub\"]\n\texcludesfile = ~/wrong\n"
        "[CORE]\n\tExcludesFile = \"~/global-excludes\" ; the global one\n");
  CHECK(userExcludesFile({}) == home / "global-excludes");
  CHECK(userExcludesFile(repo) == home / "global-excludes");

  // The repository's config wins over the user's.
  write(home / "repo-excludes", "*.secret\n");
  write(repo / ".git" / "config", "[core]\n\tbare = false\n[core] excludesFile = ~/repo-excludes\n");
  CHECK(userExcludesFile(repo) == home / "repo-excludes");
  CHECK(userExcludesFile({}) == home / "global-excludes");
  const auto stack = IgnoreStack::forRoot(repo, {});
  CHECK(stack->match(repo / "x" / "a.secret", false) == IgnoreMatch::Ignore);
  CHECK(stack->match(repo / "a.global", false) == IgnoreMatch::None);

  // A relative path is relative to the repository, where git runs.
  write(repo / ".git" / "config", "[core]\n\texcludesfile = rel-excludes # here\n");
  write(repo / "rel-excludes", "*.rel\n");
  CHECK(userExcludesFile(repo) == repo / "rel-excludes");

  // A configured file that does not exist: none.
  write(repo / ".git" / "config", "[core]\n\texcludesfile = /nonexistent/excludes\n");
  CHECK(userExcludesFile(repo).empty());

  // Outside a repository the user's file still applies, relative to the root.
  const fs::path plain = temp.path() / "plain";
  fs::create_directories(plain / "d");
  const auto outside = IgnoreStack::forRoot(plain, {});
  CHECK(outside->match(plain / "d" / "x.global", false) == IgnoreMatch::Ignore);
}

TEST_CASE("ignore stack: outside a repository, the workspace's .gitignore applies to a search in a subfolder", "[ignore]") {
  toold::testing::TempDir dir("ignore_ceiling");
  fs::create_directories(dir.path() / "src");
  std::ofstream(dir.path() / ".gitignore") << "*.secret\n";
  std::ofstream(dir.path() / "src" / "a.secret") << "x";
  const auto file = dir.path() / "src" / "a.secret";
  toold::core::IgnoreOptions options;
  CHECK(toold::core::IgnoreStack::forRoot(dir.path() / "src", options)->match(file, false) == IgnoreMatch::None);
  options.ceiling = dir.path();
  CHECK(toold::core::IgnoreStack::forRoot(dir.path() / "src", options)->match(file, false) == IgnoreMatch::Ignore);
  // A ceiling that does not hold the root changes nothing.
  options.ceiling = dir.path() / "elsewhere";
  CHECK(toold::core::IgnoreStack::forRoot(dir.path() / "src", options)->match(file, false) == IgnoreMatch::None);
}
