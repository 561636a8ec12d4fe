#include "builtins/shell/command_wrappers.h"
#include "builtins/shell/shell_scanner.h"

#include <catch2/catch.hpp>

#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

using namespace toold::builtins;

namespace {

/// The word the wrapper runs, or "" when none is found.
std::string wrapped(std::string_view line) {
  auto scan = scanShellCommand(line);
  REQUIRE(scan.parsed);
  REQUIRE_FALSE(scan.commands.empty());
  const auto& words = scan.commands.front().words;
  auto index = wrappedCommandIndex(words);
  if (!index) return "";
  std::string rest;
  for (std::size_t i = *index; i < words.size(); ++i) rest += (rest.empty() ? "" : " ") + words[i].text;
  return rest;
}

} // namespace

TEST_CASE("command wrappers: the command they run is found past their options", "[wrappers]") {
  CHECK(wrapped("sudo rm -rf /") == "rm -rf /");
  CHECK(wrapped("sudo -E -u root rm x") == "rm x");
  CHECK(wrapped("sudo -uroot rm x") == "rm x");
  CHECK(wrapped("sudo --user=root -- rm x") == "rm x");
  CHECK(wrapped("sudo --user root rm x") == "rm x");
  CHECK(wrapped("env FOO=1 BAR=2 git push") == "git push");
  CHECK(wrapped("env -i -u HOME git push") == "git push");
  CHECK(wrapped("env - git push") == "git push");
  CHECK(wrapped("timeout 5 make test") == "make test");
  CHECK(wrapped("timeout -k 2 -s KILL 5s make") == "make");
  CHECK(wrapped("timeout --signal=KILL 5 make") == "make");
  CHECK(wrapped("nice -n 10 make") == "make");
  CHECK(wrapped("nice -5 make") == "make");
  CHECK(wrapped("nohup npm start") == "npm start");
  CHECK(wrapped("/usr/bin/time -v make") == "make"); // `time -p make` is bash's keyword: the scanner drops it
  CHECK(wrapped("/usr/bin/sudo rm x") == "rm x");
  CHECK(wrapped("command git status") == "git status");
  CHECK(wrapped("builtin cd /") == "cd /");
  CHECK(wrapped("exec -a name rm x") == "rm x");
  CHECK(wrapped("stdbuf -oL tail -f log") == "tail -f log");
  CHECK(wrapped("xargs -0 -n 1 rm -f") == "rm -f");
  CHECK(wrapped("xargs -I{} rm {}") == "rm {}");
  CHECK(wrapped("doas -u root rm x") == "rm x");
}

TEST_CASE("command wrappers: wrappers inside wrappers are looked through", "[wrappers]") {
  CHECK(wrapped("sudo env X=1 nice -n 5 rm -rf x") == "rm -rf x");
  CHECK(wrapped("nohup timeout 10 sudo rm x") == "rm x");
}

TEST_CASE("command wrappers: none when nothing runs or an option is unknown", "[wrappers]") {
  CHECK(wrapped("git status").empty());
  CHECK(wrapped("command -v git").empty());
  CHECK(wrapped("sudo -v").empty());
  CHECK(wrapped("sudo -l").empty());
  CHECK(wrapped("sudo").empty());
  CHECK(wrapped("env").empty());
  CHECK(wrapped("env FOO=1").empty());
  CHECK(wrapped("xargs").empty());
  CHECK(wrapped("sudo --frobnicate rm x").empty());
  CHECK(wrapped("sudo -Z rm x").empty());
  // An expansion where an option starts: its value could be anything.
  CHECK(wrapped("sudo -$FLAGS rm x").empty());
  // What was looked through so far stands when an inner wrapper cannot be read.
  CHECK(wrapped("sudo env -u X --frobnicate rm x") == "env -u X --frobnicate rm x");
}

namespace {
std::vector<ShellWord> plainWords(std::initializer_list<const char*> texts) {
  std::vector<ShellWord> words;
  for (const char* text : texts) words.push_back(ShellWord{text, false});
  return words;
}
} // namespace

TEST_CASE("command wrappers: an unreadable or string-splitting wrapper is opaque", "[wrappers]") {
  // The scanner fails closed on these (a shell could be hidden behind them); what runs is unknown.
  auto split = unwrapCommand(plainWords({"sudo", "env", "-S", "rm x"}));
  CHECK(split.index == 1);
  CHECK(split.opaque);
  CHECK(split.splitsString);
  CHECK(unwrapCommand(plainWords({"env", "--split-string=sh -c x"})).splitsString);
  auto unknown = unwrapCommand(plainWords({"timeout", "--frobnicate", "5", "sh"}));
  CHECK(unknown.index == 0);
  CHECK(unknown.opaque);
  CHECK_FALSE(unknown.splitsString);
  // Running nothing is not opaque: `command -v bash` runs no bash.
  CHECK_FALSE(unwrapCommand(plainWords({"command", "-v", "bash"})).opaque);
  auto known = unwrapCommand(plainWords({"nohup", "env", "-i", "timeout", "5", "sh", "-c", "x"}));
  CHECK(known.index == 5);
  CHECK(known.chain == std::vector<std::size_t>{0, 1, 3, 5});
  CHECK_FALSE(known.opaque);
}

TEST_CASE("command wrappers: a dynamic command is still found, for the caller to fail closed", "[wrappers]") {
  // `$FLAGS` may be options or the command: either way the caller sees a dynamic command.
  CHECK(wrapped("sudo $FLAGS rm x") == "$FLAGS rm x");
  auto scan = scanShellCommand("sudo $CMD x");
  REQUIRE(scan.parsed);
  auto index = wrappedCommandIndex(scan.commands[0].words);
  REQUIRE(index);
  CHECK(*index == 1);
  CHECK(scan.commands[0].words[*index].dynamic);
}
