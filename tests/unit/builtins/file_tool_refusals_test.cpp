// What the file tools refuse outright: reading what could block or never end (FIFOs, devices,
// pseudo files), and changing toold's own tool-output folder.
#include "builtins/apply_patch.h"
#include "builtins/edit.h"
#include "builtins/file_tools.h"
#include "builtins/grep.h"
#include "builtins/read.h"
#include "builtins/write.h"

#include "tests/support/file_contents.h"
#include "tests/support/temp_dir.h"
#include "tests/support/tool_call.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <fstream>
#include <sys/stat.h>

namespace fs = std::filesystem;
using toold::core::json;
using toold::testing::callTool;
using toold::testing::TempDir;
using toold::testing::contentOf;

namespace {

struct Workspace {
  TempDir root{"refusals"};
  fs::path directory = root.path() / "ws";
  fs::path toolOutput = root.path() / "data" / "tool-output";
  std::shared_ptr<toold::builtins::FileTools> files = std::make_shared<toold::builtins::FileTools>();
  toold::core::ToolContext context;

  Workspace() {
    fs::create_directories(directory);
    fs::create_directories(toolOutput);
    auto location = std::make_shared<toold::core::Location>();
    location->directory = directory;
    location->dataDir = root.path() / "data";
    // The person allows everything, outside paths included: the refusals tested are the tools' own.
    context = toold::testing::toolContext(location, [](const toold::core::PermissionAsk&) { return std::nullopt; });
  }
};

} // namespace

TEST_CASE("refusals: read refuses a FIFO, a device behind a regular name and /proc files at once", "[refusals]") {
  Workspace ws;
  REQUIRE(::mkfifo((ws.directory / "pipe.txt").c_str(), 0600) == 0);
  fs::create_symlink("/dev/zero", ws.directory / "notes.txt");
  auto read = toold::builtins::makeReadTool(ws.files);
  const auto started = std::chrono::steady_clock::now();
  auto fifo = callTool(read, json{{"filePath", "pipe.txt"}}, ws.context);
  auto zero = callTool(read, json{{"filePath", "notes.txt"}}, ws.context);
  auto pagemap = callTool(read, json{{"filePath", "/proc/self/pagemap"}}, ws.context);
  auto kmsg = callTool(read, json{{"filePath", "/proc/kmsg"}}, ws.context);
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(2));
  CHECK_FALSE(fifo.ok);
  CHECK_THAT(fifo.text, Catch::Contains("pipe.txt is a FIFO (named pipe); toold reads only regular files"));
  CHECK_FALSE(zero.ok);
  CHECK_THAT(zero.text, Catch::Contains("notes.txt is a character device"));
  CHECK_FALSE(pagemap.ok);
  CHECK_THAT(pagemap.text, Catch::Contains("/proc/self/pagemap is on the proc pseudo file system"));
  CHECK_FALSE(kmsg.ok);
  CHECK_THAT(kmsg.text, Catch::Contains("/proc/kmsg is on the proc pseudo file system"));
}

TEST_CASE("refusals: edit and write do not load a FIFO or a device to change it", "[refusals]") {
  Workspace ws;
  REQUIRE(::mkfifo((ws.directory / "pipe.txt").c_str(), 0600) == 0);
  auto edit = toold::builtins::makeEditTool(ws.files);
  auto outcome = callTool(edit, json{{"filePath", "pipe.txt"}, {"oldString", "a"}, {"newString", "b"}}, ws.context);
  CHECK_FALSE(outcome.ok);
  CHECK_THAT(outcome.text, Catch::Contains("is a FIFO"));
}

TEST_CASE("refusals: grep skips a FIFO in a walk and refuses one named as its path", "[refusals]") {
  Workspace ws;
  REQUIRE(::mkfifo((ws.directory / "pipe.txt").c_str(), 0600) == 0);
  std::ofstream(ws.directory / "plain.txt") << "needle\n";
  auto grep = toold::builtins::makeGrepTool();
  auto walk = callTool(grep, json{{"pattern", "needle"}}, ws.context);
  CHECK(walk.ok);
  CHECK_THAT(walk.text, Catch::Contains("plain.txt"));
  auto named = callTool(grep, json{{"pattern", "needle"}, {"path", "pipe.txt"}}, ws.context);
  CHECK_FALSE(named.ok);
  CHECK_THAT(named.text, Catch::Contains("pipe.txt is a FIFO"));
  auto proc = callTool(grep, json{{"pattern", "x"}, {"path", "/proc/self/pagemap"}}, ws.context);
  CHECK_FALSE(proc.ok);
  CHECK_THAT(proc.text, Catch::Contains("is on the proc pseudo file system"));
}

TEST_CASE("refusals: the tool-output folder can be read but not written, edited or patched", "[refusals]") {
  Workspace ws;
  const auto saved = ws.toolOutput / "tool_1";
  std::ofstream(saved) << "saved output\n";
  // A link into the folder from the workspace counts as the folder: the decision is on the target.
  fs::create_symlink(saved, ws.directory / "alias.txt");

  auto read = callTool(toold::builtins::makeReadTool(ws.files), json{{"filePath", saved.string()}}, ws.context);
  CHECK(read.ok);
  CHECK_THAT(read.text, Catch::Contains("1: saved output"));

  auto write = toold::builtins::makeWriteTool(ws.files);
  auto edit = toold::builtins::makeEditTool(ws.files);
  auto patch = toold::builtins::makeApplyPatchTool(ws.files);
  const std::vector<toold::testing::CallOutcome> outcomes{
      callTool(write, json{{"filePath", saved.string()}, {"content", "forged"}}, ws.context),
      callTool(write, json{{"filePath", (ws.toolOutput / "tool_2").string()}, {"content", "forged"}}, ws.context),
      callTool(edit, json{{"filePath", saved.string()}, {"oldString", "saved"}, {"newString", "forged"}}, ws.context),
      callTool(edit, json{{"filePath", "alias.txt"}, {"oldString", "saved"}, {"newString", "forged"}}, ws.context),
      callTool(patch,
               json{{"patchText", "*** Begin Patch\n*** Update File: " + saved.string() +
                                      "\n@@\n-saved output\n+forged\n*** End Patch"}},
               ws.context),
      callTool(patch, json{{"patchText", "*** Begin Patch\n*** Add File: " + (ws.toolOutput / "tool_3").string() +
                                             "\n+forged\n*** End Patch"}},
               ws.context),
  };
  for (const auto& outcome : outcomes) {
    CHECK_FALSE(outcome.ok);
    CHECK_THAT(outcome.text, Catch::Contains("is in toold's tool-output folder") && Catch::Contains("can be read, but not changed"));
  }
  CHECK(contentOf(saved) == "saved output\n");
  CHECK_FALSE(fs::exists(ws.toolOutput / "tool_2"));
  CHECK_FALSE(fs::exists(ws.toolOutput / "tool_3"));
}
