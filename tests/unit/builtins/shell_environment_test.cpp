#include "builtins/shell/shell_environment.h"
#include "tests/support/temp_dir.h"

#include <catch2/catch.hpp>

#include <fstream>
#include <sys/stat.h>

using namespace toold::builtins;
namespace fs = std::filesystem;

namespace {

fs::path makeExecutable(const fs::path& folder, const std::string& name) {
  fs::create_directories(folder);
  const auto path = folder / name;
  std::ofstream(path) << "#!/bin/sh\n";
  ::chmod(path.c_str(), 0755);
  return path;
}

} // namespace

TEST_CASE("shell environment: $SHELL is used when it is a POSIX shell", "[shell_environment]") {
  toold::testing::TempDir dir("shell_environment_test");
  const auto zsh = makeExecutable(dir.path() / "bin", "zsh");
  const auto fish = makeExecutable(dir.path() / "bin", "fish");
  const auto bash = makeExecutable(dir.path() / "path", "bash");
  const std::string path = (dir.path() / "empty").string() + ":" + (dir.path() / "path").string();

  auto chosen = selectShell(zsh.c_str(), path.c_str());
  CHECK(chosen.path == zsh.string());
  CHECK(chosen.name == "zsh");
  // fish and nu do not read POSIX syntax: bash from PATH instead.
  CHECK(selectShell(fish.c_str(), path.c_str()).path == bash.string());
  // A relative $SHELL, a missing one, or one that is not executable is not used.
  CHECK(selectShell("zsh", path.c_str()).name == "bash");
  CHECK(selectShell((dir.path() / "bin" / "missing-sh").c_str(), path.c_str()).name == "bash");
  ::chmod(zsh.c_str(), 0644);
  CHECK(selectShell(zsh.c_str(), path.c_str()).name == "bash");
  // No bash in PATH either: /bin/sh.
  auto fallback = selectShell(nullptr, (dir.path() / "empty").c_str());
  CHECK(fallback.path == "/bin/sh");
  CHECK(selectShell("", nullptr).path == "/bin/sh");
}

TEST_CASE("shell environment: the names of POSIX shells", "[shell_environment]") {
  for (auto name : {"sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash"}) CHECK(isPosixShellName(name));
  for (auto name : {"fish", "nu", "csh", "tcsh", "pwsh", "xonsh", "elvish", ""}) CHECK_FALSE(isPosixShellName(name));
}

TEST_CASE("shell environment: commands get no pager, no prompt and no colour", "[shell_environment]") {
  const auto& env = nonInteractiveEnvironment();
  auto has = [&](const std::string& entry) { return std::find(env.begin(), env.end(), entry) != env.end(); };
  CHECK(has("PAGER=cat"));
  CHECK(has("GIT_PAGER=cat"));
  CHECK(has("GIT_TERMINAL_PROMPT=0"));
  CHECK(has("GIT_EDITOR=true"));
  CHECK(has("NO_COLOR=1"));
  CHECK(has("TERM=dumb"));
  CHECK(has("FORCE_COLOR")); // removed
  // cd must go where the permission scan assumed: no CDPATH search, no inherited `cd -` target.
  CHECK(has("CDPATH"));
  CHECK(has("OLDPWD"));
  for (const auto& entry : env) CHECK_FALSE(entry.starts_with("CI="));
}
