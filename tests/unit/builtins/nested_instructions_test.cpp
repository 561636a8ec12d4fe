#include "builtins/files/nested_instructions.h"

#include "core/base/unique_fd.h"

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace toold::builtins;
namespace fs = std::filesystem;

namespace {

struct Tree {
  fs::path root;
  Tree() {
    char pattern[] = "/tmp/toold-instructions-XXXXXX";
    root = fs::canonical(::mkdtemp(pattern));
  }
  ~Tree() { fs::remove_all(root); }
  void write(const fs::path& relative, const std::string& text) const {
    fs::create_directories((root / relative).parent_path());
    std::ofstream(root / relative) << text;
  }
  toold::core::UniqueFd folder(const fs::path& relative) const {
    return toold::core::UniqueFd(::open((root / relative).c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  }
};

constexpr toold::core::BoundingLimits kWide{2000, 50 * 1024};

} // namespace

TEST_CASE("instructions: a reminder fits a quarter of the budget, cut on a line and said so", "[instructions]") {
  std::string rules;
  for (int i = 1; i <= 200; ++i) rules += "rule " + std::to_string(i) + ": keep it short\n";
  std::size_t shown = 0;
  const std::string whole = reminderText({{"/w/src/AGENTS.md", rules}}, kWide, shown);
  CHECK(shown == 1);
  CHECK_THAT(whole, Catch::EndsWith("rule 200: keep it short\n</system-reminder>"));

  const toold::core::BoundingLimits small{250, 10000};
  const std::string cut = reminderText({{"/w/src/AGENTS.md", rules}, {"/w/AGENTS.md", "later"}}, small, shown);
  CHECK(shown == 1); // the second file no longer fits: left out, to be shown by a later read
  CHECK(toold::core::measureText(cut).bytes <= small.maxBytes / 4);
  CHECK(toold::core::measureText(cut).lines <= small.maxLines / 4);
  CHECK_THAT(cut, Catch::StartsWith("\n\n<system-reminder>\nInstructions from: /w/src/AGENTS.md\nrule 1: keep it short\n"));
  CHECK_THAT(cut, Catch::Contains(": keep it short\n(Cut to fit the answer; read /w/src/AGENTS.md for the rest.)"));
  CHECK_THAT(cut, !Catch::Contains("later"));

  // A budget with no room for a line shows nothing.
  CHECK(reminderText({{"/w/AGENTS.md", rules}}, toold::core::BoundingLimits{4, 200}, shown).empty());
  CHECK(shown == 0);
}

TEST_CASE("instructions: each folder once per session, nearest first, the root left out", "[instructions]") {
  Tree tree;
  tree.write("AGENTS.md", "root");
  tree.write("a/AGENTS.md", "a rules");
  tree.write("a/b/c.txt", "c");
  NestedInstructions instructions;
  auto folder = tree.folder("a/b");
  auto first = instructions.lookUp("s", tree.root / "a/b/c.txt", folder.get(), tree.root, kWide);
  REQUIRE(first.loaded == std::vector<std::string>{(tree.root / "a/AGENTS.md").string()});
  CHECK_THAT(first.text, Catch::Contains("a rules") && !Catch::Contains("root"));
  CHECK(first.folders.size() == 2); // a/b (none) and a

  // Not remembered until shown: a read that failed does not use the reminder up.
  CHECK(instructions.lookUp("s", tree.root / "a/b/c.txt", folder.get(), tree.root, kWide).loaded.size() == 1);
  instructions.shown("s", first);
  CHECK(instructions.lookUp("s", tree.root / "a/b/c.txt", folder.get(), tree.root, kWide).text.empty());
  CHECK(instructions.lookUp("other", tree.root / "a/b/c.txt", folder.get(), tree.root, kWide).loaded.size() == 1);
}

TEST_CASE("instructions: a large file shows its first 8 KiB, an empty or non-UTF-8 one nothing", "[instructions]") {
  Tree tree;
  std::string big;
  while (big.size() < 20000) big += "a line of rules that goes on\n";
  tree.write("big/AGENTS.md", big);
  tree.write("big/f.txt", "f");
  tree.write("empty/AGENTS.md", "");
  tree.write("empty/f.txt", "f");
  tree.write("latin/AGENTS.md", "caf\xE9");
  tree.write("latin/f.txt", "f");
  NestedInstructions instructions;
  auto reminder = instructions.lookUp("s", tree.root / "big/f.txt", tree.folder("big").get(), tree.root, kWide);
  CHECK_THAT(reminder.text, Catch::Contains("(The first 8 KiB; read " + (tree.root / "big/AGENTS.md").string()));
  CHECK(reminder.text.size() < NestedInstructions::kMaxFileBytes + 400);
  CHECK(instructions.lookUp("s", tree.root / "empty/f.txt", tree.folder("empty").get(), tree.root, kWide).text.empty());
  CHECK(instructions.lookUp("s", tree.root / "latin/f.txt", tree.folder("latin").get(), tree.root, kWide).text.empty());
}

TEST_CASE("instructions: a walk that does not end at the root shows nothing", "[instructions]") {
  Tree tree;
  tree.write("a/AGENTS.md", "a rules");
  tree.write("a/f.txt", "f");
  NestedInstructions instructions;
  // The folder held is not where the path says (it moved): its ".." is not the root.
  tree.write("elsewhere/deep/AGENTS.md", "wrong rules");
  auto wrong = tree.folder("elsewhere/deep");
  CHECK(instructions.lookUp("s", tree.root / "a/f.txt", wrong.get(), tree.root, kWide).text.empty());
}
