#include "builtins/lsp/change_diagnostics.h"
#include "builtins/lsp/diagnostics_metadata.h"
#include "core/tools/tool_content.h"

#include <catch2/catch.hpp>

#include <string>

using namespace toold;
using builtins::RankedItem;
using nlohmann::json;

namespace {

core::LspDiagnostic diagnostic(int severity, int line, std::string message) {
  core::LspDiagnostic d;
  d.severity = severity;
  d.line = d.endLine = line;
  d.message = std::move(message);
  d.source = "clang";
  return d;
}

builtins::FileDiagnostics fileWith(std::vector<core::LspDiagnostic> diagnostics) {
  builtins::FileDiagnostics file;
  file.file.path = "/w/src/big.cpp";
  file.file.display = "/w/src/big.cpp";
  file.report.path = file.file.path;
  file.report.servers = {"clangd"};
  file.report.received = true;
  file.report.diagnostics = std::move(diagnostics);
  return file;
}

} // namespace

TEST_CASE("diagnostics metadata: hundreds of warnings keep the errors and stay under the metadata limit") {
  std::vector<core::LspDiagnostic> all;
  for (int line = 0; line < 700; ++line)
    all.push_back(diagnostic(2, line, "unused variable 'value_" + std::to_string(line) + "' [-Wunused-variable]"));
  all.push_back(diagnostic(1, 700, "use of undeclared identifier 'helper'"));
  all.push_back(diagnostic(1, 701, "expected ';' after expression"));
  std::string text;
  json metadata = json::object();
  metadata["diff"] = std::string(8 * 1024, 'x'); // what an edit's metadata shows beside them
  builtins::appendDiagnostics(text, metadata, {fileWith(all)}, builtins::DiagnosticsWording::ThisFile, "/w");

  CHECK(core::metadataProblem(metadata).empty());
  const auto& entry = metadata["diagnostics"][0];
  const auto& items = entry["items"];
  REQUIRE(items.size() >= 2);
  CHECK(items.size() < 700);
  CHECK(entry["omitted"].get<std::size_t>() == all.size() - items.size());
  // The errors are kept though they come last; the warnings kept are the first ones, in order.
  CHECK(items[items.size() - 2]["message"] == "use of undeclared identifier 'helper'");
  CHECK(items[items.size() - 1]["message"] == "expected ';' after expression");
  CHECK(items[0]["line"] == 1);
  CHECK(items[1]["line"] == 2);
  // The text's error block is not affected by the metadata's budget.
  CHECK(text.find("use of undeclared identifier 'helper'") != std::string::npos);
}

TEST_CASE("diagnostics metadata: a few items are kept whole, with no omitted count") {
  std::string text;
  json metadata = json::object();
  builtins::appendDiagnostics(text, metadata, {fileWith({diagnostic(2, 3, "w"), diagnostic(1, 4, "e")})},
                              builtins::DiagnosticsWording::ThisFile, "/w");
  const auto& entry = metadata["diagnostics"][0];
  CHECK(entry["items"].size() == 2);
  CHECK_FALSE(entry.contains("omitted"));
}

TEST_CASE("diagnostics metadata: the budget goes to the change's errors, then other errors, then warnings") {
  auto item = [](std::string message, int rank) { return RankedItem{json{{"message", std::move(message)}}, rank}; };
  const std::size_t each = json{{"message", "aaaa"}}.dump().size() + 1;
  std::vector<std::vector<RankedItem>> entries{
      {item("warn", 2), item("old1", 1)},
      {item("hint", 3), item("new1", 0), item("old2", 1)},
  };
  std::vector<std::size_t> omitted;
  auto kept = builtins::keepWithinBudget(entries, omitted, 3 * each);
  REQUIRE(kept.size() == 2);
  CHECK(kept[0] == json::array({json{{"message", "old1"}}}));
  CHECK(kept[1] == json::array({json{{"message", "new1"}}, json{{"message", "old2"}}}));
  CHECK(omitted == std::vector<std::size_t>{1, 1});

  kept = builtins::keepWithinBudget(entries, omitted, 0);
  CHECK(kept[0].empty());
  CHECK(kept[1].empty());
  CHECK(omitted == std::vector<std::size_t>{2, 3});
}

TEST_CASE("diagnostics metadata: an item too large for what is left does not stop smaller ones") {
  std::vector<std::vector<RankedItem>> entries{{RankedItem{json{{"message", std::string(100, 'e')}}, 0},
                                               RankedItem{json{{"message", "w"}}, 2}}};
  std::vector<std::size_t> omitted;
  auto kept = builtins::keepWithinBudget(entries, omitted, 50);
  CHECK(kept[0] == json::array({json{{"message", "w"}}}));
  CHECK(omitted[0] == 1);
}
