#include "core/output/output_budget.h"

#include <catch2/catch.hpp>

using namespace toold::core;

TEST_CASE("output budget: the room left is the budget less the frame, never below zero", "[output_budget]") {
  const BoundingLimits budget{10, 100};
  const auto room = roomLeft(budget, "head\nfoot");
  CHECK(room.maxLines == 8);
  CHECK(room.maxBytes == 91);
  CHECK(roomLeft(budget, "head\nfoot", 3).maxLines == 5);
  // A frame larger than the budget leaves nothing, in each dimension on its own.
  const auto none = roomLeft(BoundingLimits{1, 4}, "head\nfoot");
  CHECK(none.maxLines == 0);
  CHECK(none.maxBytes == 0);
  CHECK(roomLeft(budget, "").maxLines == 10);
  CHECK(roomLeft(budget, "").maxBytes == 100);
}

TEST_CASE("output budget: numbers at their widest", "[output_budget]") {
  CHECK(decimalDigits(0) == 1);
  CHECK(decimalDigits(9) == 1);
  CHECK(decimalDigits(10) == 2);
  CHECK(decimalDigits(100000) == 6);
  CHECK(decimalDigits(18446744073709551615ULL) == 20);
  CHECK(widestNumber(3) == "999");
  CHECK(widestNumber(0) == "9");
}

TEST_CASE("output budget: a budget is named as opencode names 50 KB", "[output_budget]") {
  CHECK(budgetSize(51200) == "50 KB");
  CHECK(budgetSize(1024) == "1 KB");
  CHECK(budgetSize(10000) == "10000 bytes");
  CHECK(budgetSize(100) == "100 bytes");
}
