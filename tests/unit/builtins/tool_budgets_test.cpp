// Every built-in that bounds its own output (so that the pipeline leaves it alone) fits the call's
// budget whole — wrapper, numbers, footer and first line included — whatever the budget, and a
// page that toold cut says on its first line how to continue.
#include "builtins/file_tools.h"
#include "builtins/files/read_page.h"
#include "builtins/glob.h"
#include "builtins/grep.h"
#include "builtins/list.h"
#include "builtins/read.h"
#include "core/output/output_bounding.h"

#include "tests/support/temp_dir.h"
#include "tests/support/tool_call.h"

#include <catch2/catch.hpp>

#include <fstream>
#include <regex>

namespace fs = std::filesystem;
using toold::core::BoundingLimits;
using toold::core::json;
using toold::testing::callTool;
using toold::testing::TempDir;

namespace {

struct Workspace {
  TempDir root{"budgets"};
  fs::path directory = root.path() / "ws";
  std::shared_ptr<toold::builtins::FileTools> files = std::make_shared<toold::builtins::FileTools>();
  std::shared_ptr<toold::core::Location> location = std::make_shared<toold::core::Location>();

  Workspace() {
    fs::create_directories(directory);
    location->directory = directory;
    location->dataDir = root.path() / "data";
  }

  toold::core::ToolContext context(const BoundingLimits& budget) const {
    auto context = toold::testing::toolContext(location, [](const toold::core::PermissionAsk&) { return std::nullopt; });
    context.budget = budget;
    return context;
  }

  void write(const fs::path& name, const std::string& text) const {
    fs::create_directories((directory / name).parent_path());
    std::ofstream(directory / name, std::ios::binary) << text;
  }
};

const BoundingLimits kBudgets[] = {{250, 10000}, {2000, 51200}, {40, 4000}, {16, 1500}, {2000, 3000}, {30, 100000}};

std::string describe(const BoundingLimits& budget) {
  return std::to_string(budget.maxLines) + " lines / " + std::to_string(budget.maxBytes) + " bytes";
}

void checkFits(const std::string& text, const BoundingLimits& budget) {
  const auto measure = toold::core::measureText(text);
  INFO(describe(budget) << "\n" << text.substr(0, 400));
  CHECK(measure.bytes <= budget.maxBytes);
  CHECK(measure.lines <= budget.maxLines);
}

std::string firstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

} // namespace

TEST_CASE("budgets: read pages a 100,000-line file within the budget, the first line saying where to go on", "[budgets]") {
  Workspace ws;
  std::string file;
  for (int i = 1; i <= 100000; ++i) file += "line " + std::to_string(i) + " of a file that is long enough to page\n";
  ws.write("big.txt", file);
  auto read = toold::builtins::makeReadTool(ws.files);
  for (const auto& budget : kBudgets) {
    auto context = ws.context(budget);
    std::uint64_t offset = 1;
    // Three pages in a row: each fits, and each starts where the one before said to go on.
    for (int page = 0; page < 3; ++page) {
      auto outcome = callTool(read, json{{"filePath", "big.txt"}, {"offset", offset}}, context);
      REQUIRE(outcome.ok);
      checkFits(outcome.text, budget);
      std::smatch match;
      const std::string first = firstLine(outcome.text);
      INFO(first);
      REQUIRE(std::regex_match(first, match, std::regex(R"(\(Showing lines (\d+)-(\d+) of 100000\. Continue with offset=(\d+)\.\))")));
      CHECK(std::stoull(match[1]) == offset);
      CHECK(std::stoull(match[3]) == std::stoull(match[2]) + 1);
      CHECK(outcome.text.find("\n" + std::to_string(offset) + ": line " + std::to_string(offset) + " of") != std::string::npos);
      CHECK_THAT(outcome.text, Catch::Contains("Use offset=" + std::string(match[3]) + " to continue.)\n</content>"));
      offset = std::stoull(match[3]);
    }
  }
}

TEST_CASE("budgets: read's own limit is no cut of toold's, and a file that fits has no first line", "[budgets]") {
  Workspace ws;
  ws.write("small.txt", "alpha\nbeta\ngamma\n");
  auto read = toold::builtins::makeReadTool(ws.files);
  auto context = ws.context({250, 10000});
  auto limited = callTool(read, json{{"filePath", "small.txt"}, {"limit", 2}}, context);
  CHECK(limited.text.starts_with("<path>"));
  CHECK_THAT(limited.text, Catch::Contains("(Showing lines 1-2 of 3. Use offset=3 to continue.)"));
  auto whole = callTool(read, json{{"filePath", "small.txt"}}, context);
  CHECK(whole.text.starts_with("<path>"));
  CHECK_THAT(whole.text, Catch::EndsWith("(End of file - total 3 lines)\n</content>"));
}

TEST_CASE("budgets: read fits long lines and multi-byte text, cutting a lone line that alone is over", "[budgets]") {
  Workspace ws;
  std::string wide;
  for (int i = 0; i < 50; ++i) wide += std::string(3000, 'w') + "\n";
  ws.write("wide.txt", wide);
  std::string accents;
  for (int i = 0; i < 50; ++i) {
    for (int j = 0; j < 1999; ++j) accents += "\xF0\x9F\x98\x80"; // four bytes each
    accents += "\n";
  }
  ws.write("emoji.txt", accents);
  auto read = toold::builtins::makeReadTool(ws.files);
  for (const auto& budget : kBudgets) {
    for (const char* name : {"wide.txt", "emoji.txt"}) {
      auto outcome = callTool(read, json{{"filePath", name}}, ws.context(budget));
      REQUIRE(outcome.ok);
      checkFits(outcome.text, budget);
      CHECK_THAT(firstLine(outcome.text), Catch::StartsWith("(Showing lines 1-"));
    }
  }
}

TEST_CASE("budgets: read pages a directory within the budget", "[budgets]") {
  Workspace ws;
  for (int i = 0; i < 600; ++i) ws.write("many/entry_with_a_rather_long_name_number_" + std::to_string(i) + ".txt", "x");
  auto read = toold::builtins::makeReadTool(ws.files);
  for (const auto& budget : kBudgets) {
    auto outcome = callTool(read, json{{"filePath", "many"}}, ws.context(budget));
    REQUIRE(outcome.ok);
    checkFits(outcome.text, budget);
    // A budget that holds all 600 shows them with no first line; any other says how to go on.
    if (outcome.text.find("\n(600 entries)\n") != std::string::npos)
      CHECK(outcome.text.starts_with("<path>"));
    else
      CHECK_THAT(firstLine(outcome.text), Catch::Matches(R"(\(Showing \d+ of 600 entries\. Continue with offset=\d+\.\))"));
  }
}

TEST_CASE("budgets: grep, glob and list fit the budget, footer included", "[budgets]") {
  Workspace ws;
  const std::string longLine = "needle " + std::string(1500, 'n') + "\n";
  for (int i = 0; i < 150; ++i)
    ws.write("src/a_folder_with_a_long_name/file_number_" + std::to_string(i) + ".txt", longLine + longLine);
  auto grep = toold::builtins::makeGrepTool();
  auto glob = toold::builtins::makeGlobTool();
  auto list = toold::builtins::makeListTool();
  for (const auto& budget : kBudgets) {
    auto context = ws.context(budget);
    auto found = callTool(grep, json{{"pattern", "needle"}}, context);
    REQUIRE(found.ok);
    checkFits(found.text, budget);
    CHECK_THAT(firstLine(found.text), Catch::Matches(R"(Found 300 matches \(showing first \d+\))"));
    CHECK_THAT(found.text, Catch::Contains("(Results truncated: showing "));
    auto globbed = callTool(glob, json{{"pattern", "**/*.txt"}}, context);
    REQUIRE(globbed.ok);
    checkFits(globbed.text, budget);
    auto listed = callTool(list, json{{"path", "src"}}, context);
    REQUIRE(listed.ok);
    checkFits(listed.text, budget);
  }
}

TEST_CASE("budgets: a read page's room counts the whole frame", "[budgets]") {
  using toold::builtins::pageRoom;
  // 250 lines: the header (3), the blank line, the footer, </content> and the first line take 7.
  const auto room = pageRoom(BoundingLimits{250, 100000}, "/w/a.txt", 1, 2000, 100001);
  CHECK(room.lines == 243);
  CHECK(room.lineOverhead == 6); // "2000: " at its widest
  // The caller's limit when it is the smaller.
  CHECK(pageRoom(BoundingLimits{250, 100000}, "/w/a.txt", 1, 10, 100001).lines == 10);
  // Bytes: the budget less the frame at its widest.
  const auto bytes = pageRoom(BoundingLimits{2000, 4000}, "/w/a.txt", 1, 2000, 100001).bytes;
  CHECK(bytes > 3700);
  CHECK(bytes < 3850);
  // A budget too small for the frame still shows a line.
  CHECK(pageRoom(BoundingLimits{2, 10}, "/w/a.txt", 1, 2000, 100001).lines == 1);
  CHECK(pageRoom(BoundingLimits{2, 10}, "/w/a.txt", 1, 2000, 100001).bytes == 1);
}
