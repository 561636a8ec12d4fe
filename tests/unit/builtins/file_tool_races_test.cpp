// The workspace boundary under a racer: a thread swaps a folder of the workspace with a symlink to
// a folder outside it (rename with RENAME_EXCHANGE, as fast as it can) while a file tool works on a
// path below that folder, over and over. Whatever the interleaving, nothing outside may be read,
// written, created or renamed: the tool either acts on the real folder or refuses. The person in
// these tests refuses every external_directory ask, so the only way out is the race itself.
#include "builtins/apply_patch.h"
#include "builtins/edit.h"
#include "builtins/file_tools.h"
#include "builtins/glob.h"
#include "builtins/grep.h"
#include "builtins/list.h"
#include "builtins/multiedit.h"
#include "builtins/read.h"
#include "builtins/write.h"

#include "core/base/unique_fd.h"
#include "tests/support/temp_dir.h"
#include "tests/support/tool_call.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;
using toold::core::json;
using toold::testing::CallOutcome;
using toold::testing::TempDir;

namespace {

constexpr auto kRaceFor = std::chrono::milliseconds(1500);
constexpr std::string_view kSecret = "TOP-SECRET";

void writeFile(const fs::path& path, const std::string& content) {
  std::ofstream(path, std::ios::binary) << content;
}

/// What a folder holds, deeply: every entry's name with its type, inode, size, mtime and bytes.
std::map<std::string, std::string> snapshot(const fs::path& folder) {
  std::map<std::string, std::string> entries;
  for (const auto& entry : fs::recursive_directory_iterator(folder)) {
    struct stat status {};
    ::lstat(entry.path().c_str(), &status);
    std::string description = std::to_string(status.st_mode) + "/" + std::to_string(status.st_ino) + "/" +
                              std::to_string(status.st_size) + "/" + std::to_string(status.st_mtim.tv_nsec);
    if (S_ISREG(status.st_mode)) {
      std::ifstream in(entry.path(), std::ios::binary);
      description += "/" + std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    entries[entry.path().lexically_relative(folder).string()] = description;
  }
  return entries;
}

/// A workspace `ws` with a folder `ws/d` (file.txt: "hello\n", sub/deep.txt) and a symlink `ws/alt`
/// to the folder `outside` (file.txt: "hello TOP-SECRET\n", secret-name.txt, sub/secret-name-deep.txt),
/// which the racer swaps.
struct RaceSite {
  TempDir root{"races"};
  fs::path workspace = root.path() / "ws";
  fs::path outside = root.path() / "outside";
  std::shared_ptr<toold::builtins::FileTools> files = std::make_shared<toold::builtins::FileTools>();
  toold::core::ToolContext context;
  std::map<std::string, std::string> outsideBefore;
  toold::core::UniqueFd insideFolder; ///< the real folder d, held, for the tests' own look at it

  RaceSite() {
    fs::create_directories(workspace / "d" / "sub");
    fs::create_directories(outside / "sub");
    writeFile(workspace / "d" / "file.txt", "hello\n");
    writeFile(outside / "file.txt", "hello " + std::string(kSecret) + "\n");
    writeFile(outside / "secret-name.txt", std::string(kSecret) + "\n");
    writeFile(workspace / "d" / "sub" / "deep.txt", "inside\n");
    writeFile(outside / "sub" / "secret-name-deep.txt", std::string(kSecret) + "\n");
    fs::create_directory_symlink(outside, workspace / "alt");
    auto location = std::make_shared<toold::core::Location>();
    location->directory = workspace;
    location->dataDir = root.path() / "data";
    context = toold::testing::toolContext(location);
    outsideBefore = snapshot(outside);
    insideFolder.reset(::open((workspace / "d").c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  }

  /// The bytes of `name` in the real folder d, wherever the racer has put it.
  std::string inside(const std::string& name) const {
    toold::core::UniqueFd file(::openat(insideFolder.get(), name.c_str(), O_RDONLY | O_CLOEXEC));
    std::string bytes(4096, '\0');
    const ssize_t got = file ? ::read(file.get(), bytes.data(), bytes.size()) : -1;
    bytes.resize(got > 0 ? static_cast<std::size_t>(got) : 0);
    return bytes;
  }

  /// Calls `call(i)` for i = 0, 1, ... while the racer swaps `ws/d` and `ws/alt`, for kRaceFor;
  /// every outcome is checked for the secret, and the outside folder afterwards. Returns whether
  /// one more call succeeds once the racer has stopped.
  bool race(const std::function<CallOutcome(int)>& call) {
    std::atomic<bool> stop{false};
    std::thread racer([&] {
      const std::string d = (workspace / "d").string(), alt = (workspace / "alt").string();
      // Short pauses (1 to 63 µs) between swaps, so that every interleaving gets its chance.
      for (unsigned swaps = 0; !stop.load(std::memory_order_relaxed); ++swaps) {
        ::renameat2(AT_FDCWD, d.c_str(), AT_FDCWD, alt.c_str(), RENAME_EXCHANGE);
        std::this_thread::sleep_for(std::chrono::microseconds(swaps % 64));
      }
    });
    int succeeded = 0, refusedAsChanged = 0, calls = 0;
    const auto until = std::chrono::steady_clock::now() + kRaceFor;
    for (int i = 0; std::chrono::steady_clock::now() < until; ++i, ++calls) {
      CallOutcome outcome = call(i);
      if (outcome.text.find(kSecret) != std::string::npos) {
        stop = true;
        racer.join();
        FAIL("call " << i << " showed an outside file: " << outcome.text);
      }
      if (outcome.ok) ++succeeded;
      if (outcome.text.find("changed after it was checked") != std::string::npos) ++refusedAsChanged;
    }
    stop = true;
    racer.join();
    INFO(calls << " calls, " << succeeded << " succeeded, " << refusedAsChanged << " refused as changed");
    CHECK(snapshot(outside) == outsideBefore);
    // Once the folder is left alone (and is the real one), the same call works: the tool was
    // refusing because of the race, not for a reason of its own.
    if (fs::is_symlink(workspace / "d"))
      ::renameat2(AT_FDCWD, (workspace / "d").c_str(), AT_FDCWD, (workspace / "alt").c_str(), RENAME_EXCHANGE);
    // As a model would after refusals, read the file again first: a patch cut short by the race
    // whose rollback could not hold the folder leaves the file as patched (and says so), which the
    // session's read stamp then rightly reports as modified.
    toold::testing::callTool(toold::builtins::makeReadTool(files), json{{"filePath", at("d/file.txt")}}, context);
    CallOutcome still = call(calls + 1);
    CHECK(still.text.find(kSecret) == std::string::npos);
    if (!still.ok) WARN("the call after the race failed: " << still.text);
    return still.ok;
  }

  std::string at(const std::string& relative) const { return (workspace / relative).string(); }
};

} // namespace

TEST_CASE("races: read never shows a file or a folder outside the workspace", "[races]") {
  RaceSite site;
  auto read = toold::builtins::makeReadTool(site.files);
  const bool worksWhenStill = site.race([&](int i) {
    const std::string path = i % 4 == 3 ? site.at("d") : site.at("d/file.txt");
    auto outcome = toold::testing::callTool(read, json{{"filePath", path}}, site.context);
    // A listing of the outside folder would name secret-name.txt rather than show its bytes.
    if (outcome.text.find("secret-name") != std::string::npos) outcome.text += std::string(kSecret);
    return outcome;
  });
  CHECK(worksWhenStill);
}

TEST_CASE("races: write never creates or replaces a file outside the workspace", "[races]") {
  RaceSite site;
  auto write = toold::builtins::makeWriteTool(site.files);
  const bool worksWhenStill = site.race([&](int i) {
    // A new file, and one in a folder write must create first.
    const std::string path = i % 2 ? site.at("d/new-" + std::to_string(i) + ".txt")
                                   : site.at("d/sub/made-" + std::to_string(i) + "/new.txt");
    return toold::testing::callTool(write, json{{"filePath", path}, {"content", "written\n"}}, site.context);
  });
  CHECK(worksWhenStill);
}

TEST_CASE("races: edit never changes or creates a file outside the workspace", "[races]") {
  RaceSite site;
  auto edit = toold::builtins::makeEditTool(site.files);
  const bool worksWhenStill = site.race([&](int i) {
    if (i % 3 == 2)
      return toold::testing::callTool(
          edit, json{{"filePath", site.at("d/created-" + std::to_string(i) + ".txt")}, {"oldString", ""}, {"newString", "x\n"}},
          site.context);
    const bool up = site.inside("file.txt") == "hello\n";
    return toold::testing::callTool(edit,
                                    json{{"filePath", site.at("d/file.txt")},
                                         {"oldString", up ? "hello" : "HELLO"},
                                         {"newString", up ? "HELLO" : "hello"}},
                                    site.context);
  });
  CHECK(worksWhenStill);
}

TEST_CASE("races: multiedit never changes a file outside the workspace", "[races]") {
  RaceSite site;
  auto multiedit = toold::builtins::makeMultiEditTool(site.files);
  const bool worksWhenStill = site.race([&](int) {
    // Two edits, each applied to the result of the other: "hello" becomes "HELLO!" and back.
    const bool up = site.inside("file.txt") == "hello\n";
    json edits = up ? json::array({json{{"oldString", "hello"}, {"newString", "HELLO"}},
                                   json{{"oldString", "HELLO"}, {"newString", "HELLO!"}}})
                    : json::array({json{{"oldString", "HELLO!"}, {"newString", "HELLO"}},
                                   json{{"oldString", "HELLO"}, {"newString", "hello"}}});
    return toold::testing::callTool(multiedit, json{{"filePath", site.at("d/file.txt")}, {"edits", edits}}, site.context);
  });
  CHECK(worksWhenStill);
}

TEST_CASE("races: apply_patch never adds, updates or moves a file outside the workspace", "[races]") {
  RaceSite site;
  auto patch = toold::builtins::makeApplyPatchTool(site.files);
  std::string lastAdded; // a file an earlier call added, to move
  const bool worksWhenStill = site.race([&](int i) {
    // Changes that apply to the file as it now is, so that a call fails only by the race.
    const bool up = site.inside("file.txt") == "hello\n";
    const std::string added = "added-" + std::to_string(i) + ".txt";
    std::string text = "*** Begin Patch\n*** Add File: d/" + added + "\n+added\n";
    text += "*** Update File: d/file.txt\n@@\n-" + std::string(up ? "hello" : "HELLO") + "\n+" + (up ? "HELLO" : "hello") + "\n";
    if (!lastAdded.empty() && i % 3 == 0)
      text += "*** Update File: d/" + lastAdded + "\n*** Move to: d/sub/moved-" + std::to_string(i) + ".txt\n@@\n-added\n+moved\n";
    text += "*** End Patch";
    auto outcome = toold::testing::callTool(patch, json{{"patchText", text}}, site.context);
    if (outcome.ok) lastAdded = added;
    return outcome;
  });
  CHECK(worksWhenStill);
}

/// A listing that names an outside file counts as showing it.
CallOutcome flagSecretNames(CallOutcome outcome) {
  if (outcome.text.find("secret-name") != std::string::npos) outcome.text += std::string(kSecret);
  return outcome;
}

TEST_CASE("races: grep never searches a file outside the workspace", "[races]") {
  RaceSite site;
  auto grep = toold::builtins::makeGrepTool();
  const bool worksWhenStill = site.race([&](int i) {
    // The workspace walked (d swapped below the root), d as the root, and a file named directly.
    const std::string path = i % 3 == 0 ? site.at(".") : i % 3 == 1 ? site.at("d") : site.at("d/sub/deep.txt");
    return flagSecretNames(
        toold::testing::callTool(grep, json{{"pattern", "TOP-SECRET|inside|hello"}, {"path", path}}, site.context));
  });
  CHECK(worksWhenStill);
}

TEST_CASE("races: glob never lists a file outside the workspace", "[races]") {
  RaceSite site;
  auto glob = toold::builtins::makeGlobTool();
  const bool worksWhenStill = site.race([&](int i) {
    const std::string path = i % 2 ? site.at(".") : site.at("d");
    return flagSecretNames(toold::testing::callTool(glob, json{{"pattern", "**/*.txt"}, {"path", path}}, site.context));
  });
  CHECK(worksWhenStill);
}

TEST_CASE("races: list never lists a folder outside the workspace", "[races]") {
  RaceSite site;
  auto list = toold::builtins::makeListTool();
  const bool worksWhenStill = site.race([&](int i) {
    const std::string path = i % 2 ? site.at(".") : site.at("d");
    return flagSecretNames(toold::testing::callTool(list, json{{"path", path}}, site.context));
  });
  CHECK(worksWhenStill);
}

TEST_CASE("races: a path that leaves the workspace while the person decides is refused after approval", "[races]") {
  RaceSite site;
  // The person approves the inside path; meanwhile the folder becomes a link to outside.
  auto swapWhileAsking = [&site](const toold::core::PermissionAsk& ask) -> std::optional<std::string> {
    if (ask.action == "external_directory") return "refused: outside";
    if (ask.action == "edit")
      ::renameat2(AT_FDCWD, site.at("d").c_str(), AT_FDCWD, site.at("alt").c_str(), RENAME_EXCHANGE);
    return std::nullopt;
  };
  site.context = toold::testing::toolContext(site.context.location, swapWhileAsking);
  auto swapBack = [&site] {
    if (fs::is_symlink(site.workspace / "d"))
      ::renameat2(AT_FDCWD, site.at("d").c_str(), AT_FDCWD, site.at("alt").c_str(), RENAME_EXCHANGE);
  };

  auto write = toold::builtins::makeWriteTool(site.files);
  auto written = toold::testing::callTool(write, json{{"filePath", site.at("d/new.txt")}, {"content", "x"}}, site.context);
  swapBack();
  auto edit = toold::builtins::makeEditTool(site.files);
  auto edited = toold::testing::callTool(
      edit, json{{"filePath", site.at("d/file.txt")}, {"oldString", "hello"}, {"newString", "HELLO"}}, site.context);
  swapBack();
  auto patch = toold::builtins::makeApplyPatchTool(site.files);
  auto patched = toold::testing::callTool(
      patch, json{{"patchText", "*** Begin Patch\n*** Update File: d/file.txt\n@@\n-hello\n+HELLO\n*** End Patch"}},
      site.context);
  swapBack();

  for (const auto& outcome : {written, edited, patched}) {
    CHECK_FALSE(outcome.ok);
    CHECK_THAT(outcome.text, Catch::Contains("changed after it was checked") && Catch::Contains("is now a symbolic link"));
  }
  CHECK(snapshot(site.outside) == site.outsideBefore);
  CHECK(site.inside("file.txt") == "hello\n");
}
