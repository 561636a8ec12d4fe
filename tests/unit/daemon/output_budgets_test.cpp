#include "daemon/output_budgets.h"

#include <catch2/catch.hpp>

using namespace toold::daemon;

TEST_CASE("output budgets: each face keeps its default unless the user set one", "[output_budgets]") {
  const auto none = explicitBudget(std::nullopt, std::nullopt, std::nullopt, std::nullopt);
  CHECK(faceBudget(none, kCallFaceBudget).maxBytes == 51200);
  CHECK(faceBudget(none, kCallFaceBudget).maxLines == 2000);
  CHECK(faceBudget(none, kMcpFaceBudget).maxBytes == 10000);
  CHECK(faceBudget(none, kMcpFaceBudget).maxLines == 250);
}

TEST_CASE("output budgets: a flag wins over the config, each dimension on its own, on every face", "[output_budgets]") {
  const auto set = explicitBudget(std::nullopt, 4000, 300, 20000);
  CHECK(set.maxBytes == 4000u);
  CHECK(set.maxLines == 300u);
  for (const auto& face : {kCallFaceBudget, kMcpFaceBudget}) {
    CHECK(faceBudget(set, face).maxBytes == 4000);
    CHECK(faceBudget(set, face).maxLines == 300);
  }
  // Only bytes set: the lines stay each face's own.
  const auto bytesOnly = explicitBudget(std::nullopt, 4000, std::nullopt, std::nullopt);
  CHECK(faceBudget(bytesOnly, kMcpFaceBudget).maxLines == 250);
  CHECK(faceBudget(bytesOnly, kCallFaceBudget).maxLines == 2000);
}

TEST_CASE("output budgets: the MCP default fits what every measured host keeps whole", "[output_budgets]") {
  // Codex keeps about 10 KiB (10240 bytes, 256 lines in some versions); opencode 2000 lines /
  // 51200 bytes; Claude Code about 50 KB before it swaps the answer for a file.
  CHECK(kMcpFaceBudget.maxBytes <= 10240);
  CHECK(kMcpFaceBudget.maxLines <= 256);
}
