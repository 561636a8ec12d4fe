#include "core/tools/catalog_filter.h"

#include <catch2/catch.hpp>

using namespace toold::core;

TEST_CASE("catalog filter: GPT models other than gpt-4 and oss get apply_patch, others edit, write and multiedit",
          "[catalog_filter]") {
  const std::optional<std::string> gpt5 = "gpt-5", gpt4o = "gpt-4o", oss = "gpt-oss-120b", claude = "claude-sonnet-4";
  CHECK(hiddenForModel("edit", gpt5));
  CHECK(hiddenForModel("write", gpt5));
  CHECK(hiddenForModel("multiedit", gpt5)); // the editing sets exclude each other
  CHECK_FALSE(hiddenForModel("apply_patch", gpt5));
  for (const auto& model : {gpt4o, oss, claude, std::optional<std::string>()}) {
    CHECK_FALSE(hiddenForModel("edit", model));
    CHECK_FALSE(hiddenForModel("write", model));
    CHECK_FALSE(hiddenForModel("multiedit", model));
    CHECK(hiddenForModel("apply_patch", model));
  }
  CHECK_FALSE(hiddenForModel("read", gpt5));
  CHECK_FALSE(hiddenForModel("read", claude));
}
