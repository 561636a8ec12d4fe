#include "core/catalog_filter.h"

#include <catch2/catch.hpp>

using namespace toold::core;
using toold::protocol::CatalogRule;

TEST_CASE("catalog filter: the last matching rule decides; only deny on * hides", "[catalog_filter]") {
  using Rules = std::vector<CatalogRule>;
  CHECK_FALSE(whollyDenied("question", {}));
  const Rules denyQuestion{{"question", "*", "deny"}};
  CHECK(whollyDenied("question", denyQuestion));
  CHECK_FALSE(whollyDenied("edit", denyQuestion));
  const Rules allButPrivateQuestion{{"*", "*", "deny"}, {"question", "private", "allow"}};
  CHECK(whollyDenied("edit", allButPrivateQuestion));
  CHECK_FALSE(whollyDenied("question", allButPrivateQuestion));
  const Rules denyLast{{"question", "private", "allow"}, {"*", "*", "deny"}};
  CHECK(whollyDenied("question", denyLast));
  const Rules denyOnePath{{"read", "secret/*", "deny"}};
  CHECK_FALSE(whollyDenied("read", denyOnePath));
  const Rules askAll{{"bash", "*", "ask"}};
  CHECK_FALSE(whollyDenied("bash", askAll));
  const Rules wildcardAction{{"mcp_*", "*", "deny"}};
  CHECK(whollyDenied("mcp_fetch", wildcardAction));
  CHECK_FALSE(whollyDenied("fetch", wildcardAction));
}

TEST_CASE("catalog filter: GPT models other than gpt-4 and oss get apply_patch, others edit and write",
          "[catalog_filter]") {
  const std::optional<std::string> gpt5 = "gpt-5", gpt4o = "gpt-4o", oss = "gpt-oss-120b", claude = "claude-sonnet-4";
  CHECK(hiddenForModel("edit", gpt5));
  CHECK(hiddenForModel("write", gpt5));
  CHECK_FALSE(hiddenForModel("apply_patch", gpt5));
  for (const auto& model : {gpt4o, oss, claude, std::optional<std::string>()}) {
    CHECK_FALSE(hiddenForModel("edit", model));
    CHECK_FALSE(hiddenForModel("write", model));
    CHECK(hiddenForModel("apply_patch", model));
  }
  CHECK_FALSE(hiddenForModel("read", gpt5));
  CHECK_FALSE(hiddenForModel("read", claude));
}
