#include "builtins/codemode/catalog_search.h"

#include <catch2/catch.hpp>

using namespace toold::codemode;
using json = nlohmann::json;

namespace {

std::vector<CatalogEntry> catalog() {
  std::vector<CatalogEntry> entries;
  auto add = [&](ToolPath path, std::string description, json input = json::object()) {
    entries.push_back(makeCatalogEntry(std::move(path), std::move(description), input, std::nullopt));
  };
  add({"github", "list_issues"}, "List issues of a repository",
      json::parse(R"({"type":"object","properties":{"repo":{"type":"string","description":"owner/name"}}})"));
  add({"github", "create_issue"}, "Open a new issue");
  add({"github", "get_pull_request"}, "One pull request with its reviews");
  add({"slack", "post_message"}, "Send a message to a channel");
  add({"slack", "list_channels"}, "Channels of the workspace");
  add({"context7", "resolve-library-id"}, "Find a library's id");
  add({"read"}, "Read a file");
  sortCatalog(entries);
  return entries;
}

std::vector<std::string> paths(const json& answer) {
  std::vector<std::string> out;
  for (const auto& item : answer["items"]) out.push_back(item["path"]);
  return out;
}

} // namespace

TEST_CASE("search: terms split camelCase and drop plurals", "[codemode]") {
  CHECK(searchTerms("listIssues of repo-name *") == std::vector<std::string>{"list", "issues", "of", "repo", "name"});
  CHECK(searchTerms("  ").empty());
}

TEST_CASE("search: scoring ranks the path's last segment, then path, description, text", "[codemode]") {
  const auto entries = catalog();
  // "issues" → also "issue": list_issues contains it in the path (+8) and description (+4) and text (+2);
  // create_issue too, and "issue" is its path's end? no: its end is create_issue.
  SearchRequest request;
  request.query = "issues";
  const json answer = searchCatalog(entries, request);
  CHECK(paths(answer) == std::vector<std::string>{"tools.github.create_issue", "tools.github.list_issues"});
  request.query = "read";
  CHECK(paths(searchCatalog(entries, request)).front() == "tools.read"); // +20: the path is the term
  request.query = "channel message";
  CHECK(paths(searchCatalog(entries, request)).front() == "tools.slack.post_message");
  request.query = "owner";  // only in the input's property description: +2
  CHECK(paths(searchCatalog(entries, request)) == std::vector<std::string>{"tools.github.list_issues"});
  request.query = "zebra";
  CHECK(searchCatalog(entries, request)["items"].empty());
}

TEST_CASE("search: an exact path answers that tool alone", "[codemode]") {
  const auto entries = catalog();
  SearchRequest request;
  request.query = R"(tools.context7["resolve-library-id"])";
  CHECK(paths(searchCatalog(entries, request)) == std::vector<std::string>{R"(tools.context7["resolve-library-id"])"});
  request.query = "github.list_issues";
  CHECK(paths(searchCatalog(entries, request)) == std::vector<std::string>{"tools.github.list_issues"});
}

TEST_CASE("search: empty query browses, namespace filters, pages", "[codemode]") {
  const auto entries = catalog();
  SearchRequest request;
  request.ns = "github";
  request.limit = 2;
  json answer = searchCatalog(entries, request);
  CHECK(paths(answer) == std::vector<std::string>{"tools.github.create_issue", "tools.github.get_pull_request"});
  CHECK(answer["remaining"] == 1);
  CHECK(answer["next"] == json{{"offset", 2}});
  request.offset = 2;
  answer = searchCatalog(entries, request);
  CHECK(paths(answer) == std::vector<std::string>{"tools.github.list_issues"});
  CHECK(answer["next"].is_null());
  CHECK(answer["items"][0]["signature"] == "tools.github.list_issues(input: {\n  /** owner/name */\n  repo?: string,\n}): Promise<string | null>");
}

TEST_CASE("search: inputs are checked", "[codemode]") {
  CHECK(parseSearchRequest(nullptr).limit == 10);
  CHECK(parseSearchRequest(json{{"query", "x"}, {"limit", 3}, {"offset", 4}}).offset == 4);
  CHECK_THROWS_AS(parseSearchRequest(json{{"limit", 0}}), SearchInputError);
  CHECK_THROWS_AS(parseSearchRequest(json{{"limit", 1.5}}), SearchInputError);
  CHECK_THROWS_AS(parseSearchRequest(json{{"offset", -1}}), SearchInputError);
  CHECK_THROWS_AS(parseSearchRequest(json{{"query", 3}}), SearchInputError);
  CHECK_THROWS_AS(parseSearchRequest(json{{"qeury", "x"}}), SearchInputError);
  CHECK_THROWS_AS(parseSearchRequest(json::array()), SearchInputError);
}
