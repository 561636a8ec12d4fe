#include "builtins/codemode/catalog_summary.h"

#include <catch2/catch.hpp>

using namespace toold::codemode;
using json = nlohmann::json;

namespace {

CatalogEntry entry(ToolPath path, std::string description = "", json input = json::object()) {
  return makeCatalogEntry(std::move(path), std::move(description), input, std::nullopt);
}

const json kOrderInput = json::parse(R"({"type":"object","properties":{"id":{"type":"string"}},"required":["id"]})");

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

} // namespace

TEST_CASE("catalog: a complete catalog lists every tool, without the search section", "[codemode]") {
  const auto summary = summarizeCatalog({entry({"orders", "lookup"}, "Look up an order", kOrderInput)});
  CHECK(summary.complete());
  const std::string text = renderCatalog(summary);
  CHECK(contains(text, "- orders (1 tool)\n  - tools.orders.lookup(input: {\n      id: string,\n    }): Promise<string | null> // Look up an order"));
  CHECK(contains(text, "lists every Code Mode tool"));
  CHECK_FALSE(contains(text, "## Search"));
}

TEST_CASE("catalog: over the budget it is partial, with the search section", "[codemode]") {
  const auto summary = summarizeCatalog({entry({"orders", "lookup"}, "Look up an order", kOrderInput)}, 5);
  CHECK(summary.shown == 0);
  const std::string text = renderCatalog(summary);
  CHECK(contains(text, "- orders (1 tool, none shown)"));
  CHECK(contains(text, "## Search\n\nsearch(input?: {\n  query?: string,"));
  CHECK_FALSE(contains(text, "tools.orders.lookup"));
}

TEST_CASE("catalog: no tools is a notice", "[codemode]") {
  CHECK(renderCatalog(summarizeCatalog({})) == "# Code Mode\n\nNo Code Mode tools are currently available.");
}

TEST_CASE("catalog: descriptions are cut at 120 characters, first line only", "[codemode]") {
  const std::string line = listingLine(entry({"a"}, std::string(130, 'x') + "\nsecond"));
  CHECK(line == "  - tools.a(): Promise<string | null> // " + std::string(117, 'x') + "...");
  CHECK(estimatedTokens("abcdefg") == 2);
  CHECK(estimatedTokens("abcdef") == 2);
  CHECK(estimatedTokens("abcde") == 1);
}

TEST_CASE("catalog: round-robin keeps a big namespace from crowding out small ones", "[codemode]") {
  std::vector<CatalogEntry> entries;
  for (int i = 0; i < 40; ++i) entries.push_back(entry({"big", "tool" + std::to_string(100 + i)}, "A big tool"));
  entries.push_back(entry({"small", "one"}, "The small one"));
  entries.push_back(entry({"tiny"}, "Tiny"));
  sortCatalog(entries);
  // Headers cost about 20 tokens; each listing about 13.
  const auto summary = summarizeCatalog(entries, 150);
  REQUIRE(summary.namespaces.size() == 3);
  CHECK(summary.namespaces[0].name == "big");
  CHECK(summary.namespaces[0].count == 40);
  CHECK(summary.namespaces[1].entries.size() == 1);
  CHECK(summary.namespaces[2].entries.size() == 1);
  CHECK(summary.namespaces[0].entries.size() > 0);
  CHECK(summary.namespaces[0].entries.size() < 40);
  CHECK_FALSE(summary.complete());
  CHECK(contains(renderCatalog(summary), "- big (40 tools, " + std::to_string(summary.namespaces[0].entries.size()) + " shown)"));
}

TEST_CASE("catalog: pinned tools are always listed", "[codemode]") {
  auto pinned = entry({"orders", "lookup"}, "Look up an order", kOrderInput);
  pinned.pinned = true;
  const auto summary = summarizeCatalog({pinned, entry({"orders", "other"})}, 1);
  CHECK(summary.shown == 1);
  CHECK(summary.namespaces[0].entries[0].path == "orders.lookup");
}

TEST_CASE("catalog changes: complete catalogs get a delta of new, changed and removed tools", "[codemode]") {
  std::vector<CatalogEntry> before;
  for (int i = 0; i < 6; ++i) before.push_back(entry({"ns", "t" + std::to_string(i)}, "Tool " + std::to_string(i)));
  auto after = before;
  after.erase(after.begin());                                 // t0 removed
  after[0] = entry({"ns", "t1"}, "Tool 1, now better");       // t1 changed
  after.push_back(entry({"ns", "t9"}, "Tool 9"));             // t9 added
  const auto a = summarizeCatalog(before), b = summarizeCatalog(after);
  const auto change = catalogChange(&a, &b);
  REQUIRE(change);
  CHECK(change->rfind("The Code Mode tool catalog has changed.\n\nNew tools are available in addition to those previously listed:\n  - tools.ns.t9(): Promise<string | null> // Tool 9", 0) == 0);
  CHECK(contains(*change, "Changed tool listings supersede the previously listed ones:\n  - tools.ns.t1(): Promise<string | null> // Tool 1, now better"));
  CHECK(contains(*change, "The following tools are no longer available and must not be called: tools.ns.t0."));
  CHECK_FALSE(contains(*change, "supersedes the previous"));
  CHECK_FALSE(catalogChange(&b, &b));
  CHECK_FALSE(catalogChange(nullptr, &b));
  CHECK(*catalogChange(&b, nullptr) == "Code Mode tools are no longer available. Do not use any previously listed Code Mode tools.");
}

TEST_CASE("catalog changes: crossing complete/partial restates the catalog", "[codemode]") {
  const auto complete = summarizeCatalog({entry({"orders", "lookup"}, "Look up", kOrderInput)});
  const auto partial = summarizeCatalog({entry({"orders", "lookup"}, "Look up", kOrderInput)}, 5);
  const auto change = catalogChange(&complete, &partial);
  REQUIRE(change);
  CHECK(change->rfind("The Code Mode tool catalog has changed. This catalog supersedes the previous Code Mode tool catalog.\n\n# Code Mode", 0) == 0);
}

TEST_CASE("catalog changes: a delta longer than the catalog falls back to the replacement", "[codemode]") {
  // One tool replaced by another: the delta (new + removed) is longer than the whole small catalog.
  const auto a = summarizeCatalog({entry({"x"}, "X")});
  const auto b = summarizeCatalog({entry({"y"}, "Y")});
  const auto change = catalogChange(&a, &b);
  REQUIRE(change);
  const std::string replacement =
      "The Code Mode tool catalog has changed. This catalog supersedes the previous Code Mode tool catalog.\n\n" +
      renderCatalog(b);
  const std::string delta =
      "The Code Mode tool catalog has changed.\n\nNew tools are available in addition to those previously listed:\n"
      "  - tools.y(): Promise<string | null> // Y\n\nThe following tools are no longer available and must not be called: tools.x.";
  CHECK(*change == (delta.size() < replacement.size() ? delta : replacement));
}

TEST_CASE("catalog changes: partial catalogs tell changes behind the budget per namespace", "[codemode]") {
  std::vector<CatalogEntry> before;
  for (int i = 0; i < 10; ++i) before.push_back(entry({"alpha", "tool" + std::to_string(10 + i)}, "Alpha tool"));
  auto after = before;
  after.push_back(entry({"alpha", "tool99"}, "Alpha tool"));
  sortCatalog(after);
  // A budget that shows the same first few tools in both.
  const auto a = summarizeCatalog(before, 60), b = summarizeCatalog(after, 60);
  REQUIRE_FALSE(a.complete());
  REQUIRE(a.namespaces[0].entries == b.namespaces[0].entries);
  const auto change = catalogChange(&a, &b);
  REQUIRE(change);
  CHECK(contains(*change, "`alpha` now has 11 tools; search them again before relying on previous results."));
}
