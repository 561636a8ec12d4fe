// The tool-output folder's account: the oldest files go first once it is over its budget, never a
// file still being written nor the one just kept, and the total follows every change.
#include "core/output/retention_ledger.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using toold::core::RetentionLedger;
using Names = std::vector<std::string>;

TEST_CASE("retention ledger: over its budget, the oldest files go until it fits", "[retention]") {
  RetentionLedger ledger(100);
  ledger.record("tool_02", 40);
  ledger.record("tool_01", 30); // learnt later, but older by its name
  ledger.record("tool_03", 20);
  CHECK(ledger.total() == 90);
  CHECK(ledger.overBudget("tool_03").empty());
  ledger.record("tool_04", 50);
  CHECK(ledger.total() == 140);
  CHECK(ledger.overBudget("tool_04") == Names{"tool_01", "tool_02"});
  CHECK(ledger.total() == 70);
  CHECK(ledger.files() == 2);
  CHECK(ledger.overBudget("tool_04").empty());
}

TEST_CASE("retention ledger: the file just kept stays, even alone over the budget", "[retention]") {
  RetentionLedger ledger(100);
  ledger.record("tool_01", 10);
  ledger.record("tool_02", 500);
  CHECK(ledger.overBudget("tool_02") == Names{"tool_01"});
  CHECK(ledger.total() == 500);
  CHECK(ledger.files() == 1);
}

TEST_CASE("retention ledger: a file being written is never chosen, and counts once finished", "[retention]") {
  RetentionLedger ledger(100);
  ledger.writing("tool_01");
  ledger.record("tool_02", 60);
  ledger.record("tool_03", 60);
  CHECK(ledger.overBudget("tool_03") == Names{"tool_02"});
  ledger.finished("tool_01", 80);
  CHECK(ledger.total() == 140);
  // Now it may go, being the oldest; the one just finished is the one kept by the caller.
  CHECK(ledger.overBudget("tool_03") == Names{"tool_01"});
  CHECK(ledger.total() == 60);
}

TEST_CASE("retention ledger: a size given again replaces the old one, and forget subtracts", "[retention]") {
  RetentionLedger ledger(1000);
  ledger.record("tool_01", 10);
  ledger.record("tool_01", 25);
  CHECK(ledger.total() == 25);
  ledger.forget("tool_01");
  ledger.forget("tool_unknown");
  CHECK(ledger.total() == 0);
  CHECK(ledger.files() == 0);
}

TEST_CASE("retention ledger: files found on disk go only when the caller says they are quiet", "[retention]") {
  RetentionLedger ledger(100);
  ledger.resync({{"tool_01", 60}, {"tool_02", 60}});
  ledger.record("tool_03", 10);
  CHECK(ledger.total() == 130);
  // tool_01 is still being written by someone else: skipped, and tool_02 goes instead.
  CHECK(ledger.overBudget("tool_03", [](const std::string& name) { return name != "tool_01"; }) ==
        Names{"tool_02"});
  CHECK(ledger.total() == 70);
}

TEST_CASE("retention ledger: a new listing replaces the account but keeps files being written", "[retention]") {
  RetentionLedger ledger(100);
  ledger.record("tool_01", 50);
  ledger.writing("tool_02", 5);
  ledger.resync({{"tool_02", 70}, {"tool_05", 30}});
  CHECK(ledger.total() == 35); // tool_01 is gone; tool_02 counts as its writer said
  CHECK(ledger.files() == 2);
  ledger.record("tool_06", 90);
  CHECK(ledger.overBudget("tool_06") == Names{"tool_05"});
}
