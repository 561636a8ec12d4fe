// Code Mode's per-inventory catalog: made once per snapshot inventory, with a key that tells a
// worker whether it already has it.
#include "builtins/program_catalog.h"

#include <catch2/catch.hpp>

using namespace toold;
using json = nlohmann::json;

namespace {

std::shared_ptr<const core::Snapshot> inventoryOf(std::vector<std::pair<std::string, std::string>> tools) {
  auto snapshot = std::make_shared<core::Snapshot>();
  for (auto& [ns, name] : tools) {
    auto tool = std::make_shared<core::RegisteredTool>();
    tool->name = ns.empty() ? name : ns + "_" + name;
    auto extras = std::make_shared<core::RegisteredToolExtras>();
    extras->authoredName = name;
    extras->ns = ns;
    tool->extras = std::move(extras);
    tool->source = std::make_shared<const std::string>(
        json{{"name", tool->name},
             {"description", "Does " + name},
             {"inputSchema", json{{"type", "object"}, {"properties", {{"q", {{"type", "string"}}}}}}}}
            .dump());
    tool->shown = tool->source;
    snapshot->tools.push_back(std::move(tool));
  }
  return snapshot;
}

} // namespace

TEST_CASE("program catalog: made once per inventory, its tools by path", "[codemode]") {
  builtins::ProgramCatalogs catalogs;
  auto inventory = inventoryOf({{"github", "list_issues"}, {"", "echo"}});
  auto first = catalogs.forInventory(inventory);
  CHECK(catalogs.forInventory(inventory) == first);
  REQUIRE(first->entries.size() == 2);
  CHECK(first->paths == json::array({json{"echo"}, json{"github", "list_issues"}}));
  CHECK(first->catalog.size() == 2);
  REQUIRE(first->byPath.count("github.list_issues") == 1);
  CHECK(first->byPath.find("github.list_issues")->second == inventory->tools[0].get());
  CHECK(first->byPath.find("echo")->second == inventory->tools[1].get());

  auto other = catalogs.forInventory(inventoryOf({{"slack", "post"}}));
  CHECK(other->key != first->key);
  CHECK(catalogs.forInventory(inventory) == first); // still kept
}

TEST_CASE("program catalog: a released inventory's catalog is not reused for another", "[codemode]") {
  builtins::ProgramCatalogs catalogs(2);
  auto inventory = inventoryOf({{"", "echo"}});
  const std::string key = catalogs.forInventory(inventory)->key;
  inventory.reset();
  // Another inventory, wherever it is allocated, gets a catalog of its own.
  auto next = inventoryOf({{"", "other"}});
  auto made = catalogs.forInventory(next);
  CHECK(made->key != key);
  CHECK(made->byPath.count("other") == 1);
  CHECK(made->byPath.count("echo") == 0);
  // Past the capacity, the least recently used is made again, with a new key.
  auto a = inventoryOf({{"", "a"}}), b = inventoryOf({{"", "b"}});
  const std::string keyA = catalogs.forInventory(a)->key;
  catalogs.forInventory(b);
  catalogs.forInventory(next);
  CHECK(catalogs.forInventory(a)->key != keyA);
}
