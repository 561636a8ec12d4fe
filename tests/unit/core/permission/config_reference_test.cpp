// docs/config.md, docs/toold.schema.json and the loaders must not drift apart: every `json` example
// of the page is valid against the schema and read without error by toold's loaders, and what
// the loaders refuse the schema refuses too.
#include "core/lsp/formatter_config.h"
#include "core/lsp/lsp_config.h"
#include "core/permission/permission_config.h"
#include "core/sources/config_tools.h"
#include "core/sources/mcp/mcp_config.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validator.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace core = toold::core;
using nlohmann::json;

std::string readSource(const std::string& relative) {
  std::ifstream in(std::string(TOOLD_SOURCE_DIR) + "/" + relative, std::ios::binary);
  REQUIRE(in);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The ```json blocks of a Markdown text.
std::vector<std::string> jsonBlocks(const std::string& markdown) {
  std::vector<std::string> blocks;
  const std::string open = "```json\n";
  for (std::size_t at = markdown.find(open); at != std::string::npos; at = markdown.find(open, at)) {
    at += open.size();
    const std::size_t end = markdown.find("```", at);
    REQUIRE(end != std::string::npos);
    blocks.push_back(markdown.substr(at, end - at));
    at = end + 3;
  }
  return blocks;
}

class ConfigSchema {
public:
  ConfigSchema() {
    const json document = json::parse(readSource("docs/toold.schema.json"));
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    valijson::adapters::NlohmannJsonAdapter adapter(document);
    parser.populateSchema(adapter, schema_);
  }

  /// Empty when `value` is valid; else the first error.
  std::string check(const json& value) const {
    valijson::Validator validator;
    valijson::ValidationResults results;
    valijson::adapters::NlohmannJsonAdapter adapter(value);
    if (validator.validate(schema_, adapter, &results)) return {};
    valijson::ValidationResults::Error error;
    std::string message = "invalid";
    while (results.popError(error)) {
      std::string at;
      for (const auto& part : error.context) at += part;
      message += "\n  " + at + ": " + error.description;
    }
    return message;
  }

private:
  valijson::Schema schema_;
};

/// Empty when toold's loaders accept `text`; else their error.
std::string loaderError(const std::string& text) {
  try {
    core::parsePermissionConfig(text, "toold.json", "/home/u");
    core::parseMcpConfig(text, "toold.json");
    core::parseConfigTools(text, "toold.json");
    core::parseLspConfig(text, "toold.json");
    core::parseFormatterConfig(text, "toold.json");
  } catch (const core::ConfigError& e) {
    return e.what();
  }
  return {};
}

} // namespace

TEST_CASE("config reference: every json example of docs/config.md fits the schema and the loaders") {
  const ConfigSchema schema;
  const auto blocks = jsonBlocks(readSource("docs/config.md"));
  REQUIRE(blocks.size() >= 4);
  for (const auto& block : blocks) {
    INFO(block);
    CHECK(schema.check(json::parse(block)) == "");
    CHECK(loaderError(block).empty());
  }
}

TEST_CASE("config reference: the schema refuses what the loaders refuse") {
  const ConfigSchema schema;
  const std::vector<std::string> refused = {
      R"({"permision": {"edit": "deny"}})",
      R"({"permission": {"bash": {"git *": "yes"}}})",
      R"({"agent": {"build": {"model": "gpt-5"}}})",
      R"({"tools": {"write": false}})",
      R"({"tools": {"lint": {"description": "d", "timeout": 5, "handler": {"type": "command", "argv": ["true"]}}}})",
      R"({"tools": {"lint": {"description": "d", "handler": {"type": "command", "argv": ["true"], "cwdd": "."}}}})",
      R"({"tools": {"lint": {"description": "d", "handler": {"type": "client"}}}})",
      R"({"tools": {"execute": {"description": "d", "handler": {"type": "command", "argv": ["true"]}}}})",
      R"({"codemode": {"memory": 0}})",
      R"({"codemode": {"tools": {"read": "yes"}}})",
      R"({"asks": "sometimes"})",
      R"({"output": {"maxBytes": -1}})",
      R"({"webfetch": {"allowPrivateAddresses": "yes"}})",
      R"({"skills": {"paths": "team/skills"}})",
      R"({"mcp": {"fs": {"type": "local"}}})",
      R"({"mcp": {"foregroundLimit": -1}})",
      R"({"lsp": {"clangd": {"cmd": ["clangd"]}}})",
      R"({"lsp": {"zls": {"command": ["zls"]}}})",
      R"({"lsp": {"clangd": {"extensions": ["cpp"]}}})",
      R"({"lsp": {"diagnosticsTimeout": 0}})",
      R"({"lsp": {"idleTimeout": -1}})",
      R"({"lsp": "off"})",
      R"({"formatter": {"gofmt": {"command": ["gofmt", "-w"]}}})",
      R"({"formatter": {"yapf": {"command": ["yapf", "$FILE"]}}})",
      R"({"formatter": {"gofmt": {"env": {}}}})",
      R"({"formatter": "on"})",
  };
  for (const auto& text : refused) {
    INFO(text);
    CHECK_FALSE(schema.check(json::parse(text)).empty());
    CHECK_FALSE(loaderError(text).empty());
  }
}
