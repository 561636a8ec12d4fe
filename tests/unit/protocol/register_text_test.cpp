#include "protocol/register_text.h"

#include "protocol/params_error.h"

#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <utility>
#include <variant>
#include <vector>

using nlohmann::json;
using toold::protocol::RegisterParamsText;
using toold::protocol::ToolSpec;

namespace {

// The record as the tree way reads it, or its refusal's words.
std::variant<toold::protocol::RegisterParams, std::string> readTree(const std::string& text) {
  try {
    return toold::protocol::parseRegisterParams(json::parse(text));
  } catch (const std::exception& e) {
    return std::string(e.what());
  }
}

// The record read a tool at a time, the tools as the record's object holds them (by name, the
// last of duplicates); or why not: nullopt from open, or the refusal.
std::variant<toold::protocol::RegisterParams, std::string> readText(const std::string& text) {
  auto record = RegisterParamsText::open(text);
  if (!record) return std::string("not opened");
  toold::protocol::RegisterParams params;
  params.scope = record->scope();
  params.options = record->options();
  std::map<std::string, ToolSpec> tools;
  try {
    if (!record->forEachTool([&](std::string&& name, ToolSpec&& spec) { tools.insert_or_assign(name, std::move(spec)); }))
      return std::string("not read");
  } catch (const toold::protocol::ParamsError& e) {
    return std::string(e.what());
  }
  for (auto& [name, spec] : tools) params.tools.emplace_back(name, std::move(spec));
  return params;
}

json asJson(const ToolSpec& spec) {
  json handler{{"type", spec.handler.type == toold::protocol::HandlerSpec::Type::Client ? "client" : "command"},
               {"argv", spec.handler.argv}};
  if (spec.handler.cwd) handler["cwd"] = *spec.handler.cwd;
  if (spec.handler.timeoutMs) handler["timeoutMs"] = *spec.handler.timeoutMs;
  json out{{"description", spec.description}, {"inputSchema", spec.inputSchema}, {"mutates", spec.mutates},
           {"handler", handler}};
  if (spec.outputSchema) out["outputSchema"] = *spec.outputSchema;
  if (spec.codemode) out["codemode"] = *spec.codemode;
  if (spec.permission) out["permission"] = *spec.permission;
  if (spec.title) out["title"] = *spec.title;
  if (spec.annotations) out["annotations"] = *spec.annotations;
  return out;
}

json asJson(const toold::protocol::RegisterParams& params) {
  json tools = json::array();
  for (const auto& [name, spec] : params.tools) tools.push_back({name, asJson(spec)});
  json out{{"tools", tools}};
  if (params.scope) out["scope"] = *params.scope;
  if (params.options.ns) out["namespace"] = *params.options.ns;
  if (params.options.codemode) out["codemode"] = *params.options.codemode;
  return out;
}

const std::string kRecord =
    R"({"tools":{"zeta":{"description":"first","handler":{"type":"client"}},)"
    R"("beta":{"title":"B","description":"caf\u00e9 \"q\"","mutates":true,"permission":"p","codemode":false,)"
    R"("inputSchema":{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]},)"
    R"("outputSchema":{"type":"object"},"annotations":{"readOnlyHint":true},)"
    R"("handler":{"type":"command","argv":["x","y"],"cwd":"d","timeoutMs":5}},)"
    R"("zeta":{"description":"last","handler":{"type":"client"}}},)"
    R"("options":{"namespace":"ns","codemode":true},"scope":"s","other":[1]})";

} // namespace

TEST_CASE("RegisterParamsText reads a record as parseRegisterParams reads its tree", "[protocol]") {
  const auto tree = readTree(kRecord);
  const auto text = readText(kRecord);
  REQUIRE(std::holds_alternative<toold::protocol::RegisterParams>(tree));
  REQUIRE(std::holds_alternative<toold::protocol::RegisterParams>(text));
  CHECK(asJson(std::get<0>(text)) == asJson(std::get<0>(tree)));
  CHECK(std::get<0>(text).tools.size() == 2);
  // The tools come in the text's order, duplicates included: sorting is the caller's.
  auto record = RegisterParamsText::open(kRecord);
  REQUIRE(record.has_value());
  std::vector<std::string> names;
  CHECK(record->forEachTool([&](std::string&& name, ToolSpec&&) { names.push_back(name); }));
  CHECK(names == std::vector<std::string>{"zeta", "beta", "zeta"});
}

TEST_CASE("RegisterParamsText leaves to the tree way every record it cannot take as the tree way does",
          "[protocol]") {
  // Each either not opened (the caller reads it the long way) or refused: never taken.
  const std::vector<std::string> refused = {
      R"({"tools":{}})",
      R"({"tools":[]})",
      R"({"tools":"x"})",
      R"({"scope":"s"})",
      R"({"scope":"","tools":{"x":{"description":"d","handler":{"type":"client"}}}})",
      R"({"scope":3,"tools":{"x":{"description":"d","handler":{"type":"client"}}}})",
      R"({"tools":{"x":{"description":"d","handler":{"type":"client"}}},"options":[]})",
      R"({"tools":{"x":{"description":"d","handler":{"type":"client"}}},"options":{"namespace":1}})",
      R"({"tools":{"x":{"description":"d","handler":{"type":"client"}}},"options":{"codemode":"yes"}})",
      R"({"tools":{"x":"d"}})",
      R"({"tools":{"x":{"handler":{"type":"client"}}}})",
      R"({"tools":{"x":{"description":"d"}}})",
      R"({"tools":{"x":{"description":"d","handler":{"type":"rpc"}}}})",
      R"({"tools":{"x":{"description":"d","handler":{"type":"command","argv":[]}}}})",
      R"({"tools":{"x":{"description":"d","inputSchema":3,"handler":{"type":"client"}}}})",
      R"({"tools":{"x":{"description":"d","annotations":{"readOnlyHint":1},"handler":{"type":"client"}}}})",
      R"({"tools":{"x":{"description":"d","permission":"","handler":{"type":"client"}}}})",
      R"([])",
  };
  for (const auto& text : refused) {
    INFO(text);
    CHECK(std::holds_alternative<std::string>(readTree(text)));
    CHECK(std::holds_alternative<std::string>(readText(text)));
  }
  // A tool the tree way never sees (an earlier duplicate) may be refused here: the caller then
  // reads the record the long way, which takes it.
  const std::string shadowed = R"({"tools":{"x":{"description":"d"},"x":{"description":"d","handler":{"type":"client"}}}})";
  CHECK(std::holds_alternative<toold::protocol::RegisterParams>(readTree(shadowed)));
  CHECK(std::holds_alternative<std::string>(readText(shadowed)));
}

TEST_CASE("RegisterParamsText refuses every split point of a record and every malformed one", "[protocol]") {
  for (std::size_t cut = 0; cut < kRecord.size(); ++cut) {
    INFO(cut);
    CHECK(std::holds_alternative<std::string>(readText(kRecord.substr(0, cut))));
  }
  for (std::size_t at = 0; at < kRecord.size(); ++at) {
    for (const char c : {'{', '}', '"', ',', ':', '\\', '\x01'}) {
      std::string broken = kRecord;
      broken[at] = c;
      INFO(broken);
      const auto tree = readTree(broken);
      const auto text = readText(broken);
      if (std::holds_alternative<std::string>(tree)) CHECK(std::holds_alternative<std::string>(text));
      else if (std::holds_alternative<toold::protocol::RegisterParams>(text))
        CHECK(asJson(std::get<0>(text)) == asJson(std::get<0>(tree)));
    }
  }
}
